module github.com/acme/tool

go 1.22
