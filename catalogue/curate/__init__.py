"""Commands that change content/ in bulk (tags renamed, merged or split; two papers made one;
a set of papers retagged), each in one step that completes or changes nothing."""
