package format

import "github.com/acme/tool/internal/strutil"

// Wrap cuts text into lines of at most width bytes, titled.
func Wrap(text string, width int) []string {
	return split(strutil.Title(text), width)
}

func split(s string, width int) []string {
	var out []string
	for len(s) > width {
		out = append(out, s[:width])
		s = s[width:]
	}
	return append(out, s)
}
