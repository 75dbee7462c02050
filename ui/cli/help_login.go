package cli

import "github.com/alecthomas/kong"

// loginFlags are the flags `auth login --help` lists: those that choose the HTTP server,
// shape the authorization, and show how it went. The others are accepted (every command
// takes the global flags) but do nothing for a login: a spawned server's, the session's
// capabilities, fault rules, a recording, --auth and --no-auth-prompt (a login always
// authorizes), --bearer (a server reached with a token of the user's is not logged into).
var loginFlags = map[string]bool{
	"help": true, "version": true,
	"url": true, "transport": true, "header": true, "config": true, "server": true,
	"max-redirects": true, "follow-redirects-with-credentials": true,
	"client-id": true, "client-secret": true, "client-metadata-url": true, "scope": true, "no-browser": true,
	"callback-port": true, "token-store": true, "grant": true, "private-key": true, "signing-algorithm": true,
	"assertion": true, "id-token": true, "idp-token-endpoint": true, "idp-client-id": true, "idp-client-secret": true,
	"dpop": true, "protocol": true, "timeout": true, "trace": true, "quiet": true,
}

// helpPrinter is kong's help, except that auth login lists only loginFlags.
func helpPrinter(o kong.HelpOptions, ctx *kong.Context) error {
	if ctx.Command() == "auth login" {
		for _, fl := range ctx.Flags() {
			if !fl.Hidden && !loginFlags[fl.Name] {
				fl.Hidden = true
				defer func() { fl.Hidden = false }()
			}
		}
	}
	return kong.DefaultHelpPrinter(o, ctx)
}
