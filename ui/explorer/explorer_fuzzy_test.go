package explorer

import (
	"slices"
	"testing"
)

func TestFuzzyMatch(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		text    string
		ok      bool
		pos     []int
	}{
		{"empty pattern matches anything", "", "echo", true, nil},
		{"empty pattern matches empty text", "", "", true, nil},
		{"exact", "echo", "echo", true, []int{0, 1, 2, 3}},
		{"prefix", "ec", "echo", true, []int{0, 1}},
		{"case-insensitive", "ECHO", "Echo", true, []int{0, 1, 2, 3}},
		{"case-insensitive text", "tool", "toggle_TOOLS", true, []int{7, 8, 9, 10}},
		{"subsequence", "gw", "get_weather", true, []int{0, 4}},
		{"out of order", "ohce", "echo", false, nil},
		{"missing rune", "echoz", "echo", false, nil},
		{"pattern longer than text", "echoes", "echo", false, nil},
		{"empty text", "a", "", false, nil},
		{"contiguous occurrence preferred over earlier scattered", "add", "a_d_d add", true, []int{6, 7, 8}},
		{"word start preferred", "rt", "start_rt", true, []int{6, 7}},
		{"tightest scattered window", "ct", "c_c_t", true, []int{2, 4}},
		{"unicode", "été", "Un Été", true, []int{3, 4, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := fuzzyMatch(tt.pattern, tt.text)
			if ok != tt.ok {
				t.Fatalf("fuzzyMatch(%q, %q) ok = %v, want %v", tt.pattern, tt.text, ok, tt.ok)
			}
			if ok && !slices.Equal(got.Pos, tt.pos) {
				t.Errorf("fuzzyMatch(%q, %q) pos = %v, want %v", tt.pattern, tt.text, got.Pos, tt.pos)
			}
		})
	}
}

func TestFuzzyRanking(t *testing.T) {
	tests := []struct {
		pattern       string
		better, worse string
	}{
		{"add", "add", "a_d_d"},
		{"add", "add", "add_numbers"},
		{"add", "add_numbers", "bad_address"},
		{"echo", "echo", "each_chore"},
		{"tr", "touch_resource", "store"},
		{"gw", "get_weather", "gnaw"},
		{"read", "readme", "reload_data"},
		{"list", "list_roots", "toggle_tools_list"},
		{"ui", "squid", "ask_user_input"},
	}
	for _, tt := range tests {
		b, okB := fuzzyMatch(tt.pattern, tt.better)
		w, okW := fuzzyMatch(tt.pattern, tt.worse)
		if !okB || !okW {
			t.Fatalf("%q: both %q and %q should match (got %v, %v)", tt.pattern, tt.better, tt.worse, okB, okW)
		}
		if b.Score <= w.Score {
			t.Errorf("%q: %q scored %d, not above %q at %d", tt.pattern, tt.better, b.Score, tt.worse, w.Score)
		}
	}
}
