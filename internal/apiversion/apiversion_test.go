package apiversion

import "testing"

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		v   string
		old bool // the 2023-06-01 rules
	}{
		{"", true},
		{V20230601, true},
		{"2026-10-20", true},
		{V20261021, false},
		{"2027-01-01", false}, // newer than any known: the newest rules
	} {
		for name, got := range map[string]bool{
			"SamplingParams":     SamplingParams(tc.v),
			"AssistantDocuments": AssistantDocuments(tc.v),
			"UserCitations":      UserCitations(tc.v),
			"DeprecatedFields":   DeprecatedFields(tc.v),
		} {
			if got != tc.old {
				t.Errorf("%s(%q) = %v, want %v", name, tc.v, got, tc.old)
			}
		}
	}
}

func TestServedAndWellFormed(t *testing.T) {
	for _, v := range Known {
		if !Served(v) || !WellFormed(v) {
			t.Errorf("%s: Served %v, WellFormed %v", v, Served(v), WellFormed(v))
		}
	}
	for _, v := range []string{"2023-6-1", "latest", "", "2023-06-01 ", "2023-06-01x"} {
		if WellFormed(v) {
			t.Errorf("WellFormed(%q) = true", v)
		}
	}
	if Served("2027-01-01") {
		t.Error("Served(2027-01-01) = true")
	}
}
