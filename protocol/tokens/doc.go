// Package tokens counts what a server's definitions cost a model: tokens of the o200k_base
// vocabulary (the one of OpenAI's GPT-4o and later models), shipped inside the binary
// (github.com/pkoukk/tiktoken-go with its offline loader), so counting needs no network.
// Other models' tokenizers differ by some percent; the counts compare servers and tools,
// they are not a bill.
//
// The vocabulary (3.6 MB) is parsed on the first count, never at start-up: importing the
// package costs nothing until something is counted. A tool costs the tokens of its
// compact JSON with the members a host forwards to a model (name, title, description,
// inputSchema, outputSchema); a prompt, of its name, description and arguments; the
// instructions, of their text.
package tokens
