"""`build.py --watch`: the file watcher, background jobs, the error overlay and the server."""
