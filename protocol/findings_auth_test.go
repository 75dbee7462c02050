package protocol

import (
	"slices"
	"testing"
)

func TestAuthFindingsRegistered(t *testing.T) {
	codes := FindingCodes()
	for _, c := range []string{FindAuthResourceMismatch, FindAuthNoS256, FindAuthIssuerMismatch, FindAuthIssMissing,
		FindAuthScopeNotGranted, FindAuthTokenNoExpiry, FindAuthMetadata, FindAuthRegistration, FindAuthTokenError, FindAuthState} {
		if Explain(c) == "" || !slices.Contains(codes, c) {
			t.Errorf("%s: not registered with an explanation", c)
		}
	}
	if f := NewFinding(FindAuthNoS256, "x"); f.Severity != SevError {
		t.Errorf("%s severity %v, want error", FindAuthNoS256, f.Severity)
	}
}
