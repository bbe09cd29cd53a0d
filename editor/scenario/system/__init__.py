"""The scenario form of the rule systems other than Iron Cross: a form generated from the
system's scenario schema, and the document and dock that edit such a scenario file."""
