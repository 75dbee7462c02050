// Package browser opens a web address in the user's browser, and nothing else.
//
// Every address mcpscope opens goes through Open: the app host's page, an app's
// ui/open-link the user accepted, a URL-mode elicitation, an authorization URL. Many of them
// come from a server or an app, and Open hands them to a program as an argument, so Check
// lets through only an absolute http or https URL that parses, with a host, and with no
// control, space or invisible formatting character (bidi overrides, zero-width): not
// file:, javascript: or data:, not a string shaped like a flag, not a second argument or
// line. Such a URL starts with "http", so no opener can read it as an option. No "--" is
// put before it: xdg-open refuses "--" as an unknown option, and a $BROWSER command's own
// syntax is unknown.
//
// The opener is $BROWSER, a colon-separated list of commands tried in order (%s in a
// command stands for the URL, else the URL is its last argument), else xdg-open (open on
// macOS, rundll32 on Windows). A command that fails within 2 s counts as failed; one still
// running then is left to run.
package browser
