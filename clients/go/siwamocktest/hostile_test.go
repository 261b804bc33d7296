// The hostile-server cases (clients/spec/hostile_server.py; issue 36, findings 5 and 6).
package siwamocktest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func startHostile(t *testing.T) *Mock {
	t.Helper()
	server := exec.Command("python3", "../../spec/hostile_server.py")
	stdin, err := server.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := server.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); server.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if !strings.HasPrefix(line, "hostile listening on ") {
		t.Fatalf("hostile server printed %q (%v)", line, err)
	}
	return &Mock{URL: strings.TrimSpace(strings.TrimPrefix(line, "hostile listening on ")), AdminToken: "t0ken"}
}

func TestHostileServer(t *testing.T) {
	t.Parallel() // its waits overlap the other tests' (it shares nothing with them)
	hostile := startHostile(t)

	t.Run("a server dripping one byte per half second meets the overall deadline", func(t *testing.T) {
		t.Parallel()
		began := time.Now()
		_, err := hostile.request("GET", "/mock/drip", nil, time.Second)
		if err == nil || !regexp.MustCompile(`^GET http://127\.0\.0\.1:\d+/mock/drip: no complete answer within 1s$`).MatchString(err.Error()) {
			t.Fatalf("error: %v", err)
		}
		if elapsed := time.Since(began); elapsed > 10*time.Second { // a per-read timeout would wait for the 20 s of drip
			t.Fatalf("gave up after %v", elapsed)
		}
	})

	t.Run("an endless answer is cut at 16 MiB", func(t *testing.T) {
		t.Parallel()
		_, err := hostile.request("GET", "/mock/endless", nil, 30*time.Second)
		if err == nil || err.Error() != "GET /mock/endless: the answer is larger than 16 MiB; refused" {
			t.Fatalf("error: %v", err)
		}
	})

	t.Run("a redirect is not followed and the token stays", func(t *testing.T) {
		_, err := hostile.Request("GET", "/mock/redirect", nil)
		if err == nil || !regexp.MustCompile(`^GET /mock/redirect answered 302 \(a redirect to http://127\.0\.0\.1:\d+/mock/landing\): not followed`).MatchString(err.Error()) {
			t.Fatalf("error: %v", err)
		}
		stolen, err := hostile.Request("GET", "/mock/stolen", nil)
		if want := map[string]any{"authorization": []any{}, "requests": 0.0}; err != nil || !reflect.DeepEqual(stolen, want) {
			t.Fatalf("the other origin got %v (%v)", stolen, err)
		}
	})
}

func TestARunOfTheBinaryHasADeadline(t *testing.T) {
	binary := filepath.Join(t.TempDir(), "siwa-mock")
	if err := os.WriteFile(binary, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	saved := RunTimeout
	RunTimeout = 200 * time.Millisecond
	defer func() { RunTimeout = saved }()
	began := time.Now()
	_, err := (&Mock{URL: "http://127.0.0.1:9", Binary: binary}).ClientSecret("com.example.web")
	if err == nil || !strings.HasPrefix(err.Error(), "siwa-mock client-secret did not finish within 200ms") || time.Since(began) > 10*time.Second {
		t.Fatalf("after %v: %v", time.Since(began), err)
	}
}
