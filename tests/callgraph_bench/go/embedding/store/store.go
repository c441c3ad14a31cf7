package store

import "sync"

// Logger writes messages.
type Logger struct {
	prefix string
}

func (l Logger) Logf(format string, args ...any) {}

// Store is a locked map.
type Store struct {
	Logger
	mu   sync.Mutex
	data map[string]string
	idx  *Index
}

// NewStore makes an empty store.
func NewStore() *Store {
	return &Store{data: map[string]string{}, idx: newIndex()}
}

func (s *Store) Put(k, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[k] = v
	s.idx.add(k)
	s.Logf("put %s", k)
}

func (s *Store) Get(k string) (string, bool) {
	s.Logger.Logf("get %s", k)
	v, ok := s.data[k]
	return v, ok
}
