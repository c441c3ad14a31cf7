package store

// Index keeps keys in insertion order.
type Index struct {
	keys []string
}

func newIndex() *Index { return &Index{} }

func (i *Index) add(k string) { i.keys = append(i.keys, k) }

func (i *Index) Keys() []string { return i.keys }
