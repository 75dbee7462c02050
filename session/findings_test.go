package session

import "testing"

func TestFindingsLine(t *testing.T) {
	for _, tc := range []struct {
		counts []FindingCount
		want   string
	}{
		{nil, ""},
		{[]FindingCount{{"stdout.not-json", 1}}, "1 finding: stdout.not-json ×1"},
		{[]FindingCount{{"a", 2}, {"b", 1}}, "3 findings: a ×2, b ×1"},
		{[]FindingCount{{"a", 1}, {"b", 1}, {"c", 1}}, "3 findings: a ×1, b ×1, and 1 more code"},
	} {
		if got := FindingsLine(tc.counts, 2); got != tc.want {
			t.Errorf("FindingsLine(%v) = %q, want %q", tc.counts, got, tc.want)
		}
	}
}
