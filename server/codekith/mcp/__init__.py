"""`codekith mcp`: the Model Context Protocol server that AI assistants talk to.

The only package that imports the `mcp` SDK (and pydantic, which its tool schemas use).
Tools are thin: they parse arguments, ask `answers.Answers`, fit the result into a token
budget and send it as structured content plus a readable text form.
"""
