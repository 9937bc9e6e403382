module github.com/urlspec/urlspec

go 1.26.0

require (
	golang.org/x/net v0.62.0
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/text v0.43.0 // indirect
