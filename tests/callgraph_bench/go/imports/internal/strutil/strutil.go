package strutil

import "strings"

// Title upper-cases the first letter of each word.
func Title(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = upperFirst(w)
	}
	return strings.Join(words, " ")
}

func upperFirst(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}
