package config

import (
	"errors"
	"os"
)

// Config holds settings.
type Config struct {
	Path string
	vals map[string]string
}

var ErrMissing = errors.New("missing")

// Load reads a config file.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Config{Path: path, vals: map[string]string{}}
	c.parse(string(data))
	return c, nil
}

func (c *Config) parse(text string) {
	for _, line := range splitLines(text) {
		c.vals[line] = line
	}
}

// Get returns the value of key.
func (c *Config) Get(key string) (string, error) {
	v, ok := c.vals[key]
	if !ok {
		return "", ErrMissing
	}
	return v, nil
}

func splitLines(s string) []string { return nil }
