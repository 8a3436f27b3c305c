// Package core edits core memory (memory.md, or MEMORY.md), Letta-style
// (docs/reflect.md proposes edits to it): the file is a set of blocks, a block being a level-2 ("##")
// section, named by its heading and running to the next heading of level 1
// or 2. It does no I/O: callers read the file, call an edit, and write the
// result through package safewrite.
//
// Show prints the file or one block; Append adds text at the end of a
// block, creating the block when missing; Replace swaps text that occurs
// exactly once in a block; Insert puts text after a given line of a block.
// Every edit keeps all other bytes (line endings included), refuses text
// that would change the block structure (a "#" or "##" heading, an unclosed
// code fence), and refuses to grow the file past a size limit (DefaultLimit
// unless configured), so core memory stays small enough to put in every
// prompt. Headings are found exactly as package markdown reads them.
package core
