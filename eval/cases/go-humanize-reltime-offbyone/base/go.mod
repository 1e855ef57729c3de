module github.com/dustin/go-humanize

go 1.13
