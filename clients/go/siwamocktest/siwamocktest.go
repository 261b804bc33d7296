// Package siwamocktest runs siwa-mock (a fake of Apple's Sign in with Apple server) for Go tests.
//
//	mock := siwamocktest.Start(t) // stopped by t.Cleanup
//	result, err := mock.SignIn("alice", siwamocktest.SignInOptions{Scopes: []string{"name", "email"}})
//
// Standard library only. Sign-in and client secrets are the binary's own (`siwa-mock signin`,
// `siwa-mock client-secret`); the control API verbs are thin wrappers over docs/control-api.md.
package siwamocktest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	readyPrefix     = "siwa-mock listening on "
	smtpReadyPrefix = "siwa-mock smtp listening on "
	// MaxAnswerBytes: a control answer larger than this is refused (docs/test-helpers.md).
	MaxAnswerBytes = 16 << 20
)

// RunTimeout bounds one run of the binary (SignIn, ClientSecret, Verify), as in the other helpers.
var RunTimeout = 60 * time.Second

// Hint says how to get a binary; it ends every "not found" error.
const Hint = "build it with `swift build -c release --product siwa-mock` and set SIWA_MOCK_BINARY=.build/release/siwa-mock, " +
	"put siwa-mock on PATH, or set SIWA_MOCK_URL to a running mock"

// GetRelease is the one command that installs the release binary (static, no Swift toolchain needed) as
// ~/.local/bin/siwa-mock: the Go module proxy carries no binaries (docs/releasing.md). A "not found" error
// starts with it.
const GetRelease = "mkdir -p ~/.local/bin && curl -fsSL https://github.com/siwa-mock/siwa-mock/releases/download/v0.2.0/siwa-mock-0.2.0-linux-x86_64.tar.gz" +
	" | tar -xz -C ~/.local/bin --strip-components=2 siwa-mock-0.2.0-linux-x86_64/bin/siwa-mock"

// Options choose the binary and how it is started; the zero value is the built-in scenario.
type Options struct {
	Binary   string        // default: $SIWA_MOCK_BINARY, then siwa-mock on PATH
	Scenario string        // scenario file (--scenario)
	Args     []string      // more `serve` flags
	Timeout  time.Duration // for the ready line; default 30s
	// SMTP adds the private email relay's SMTP listener (--smtp-port 0, docs/relay-mail.md): the Mock's
	// SMTPHost and SMTPPort. With SIWA_MOCK_URL they come from SIWA_MOCK_SMTP (HOST:PORT).
	SMTP bool
}

// Mock is a running siwa-mock.
type Mock struct {
	URL        string
	Binary     string
	AdminToken string
	LogPath    string // the mock's stderr (request logs) when this Mock started it; Stop deletes it
	SMTPHost   string // the relay's SMTP listener (Options.SMTP, or SIWA_MOCK_SMTP); "" without one
	SMTPPort   int
	cmd        *exec.Cmd
	done       chan struct{}
}

// FindBinary returns the explicit path, else $SIWA_MOCK_BINARY, else siwa-mock on PATH.
func FindBinary(binary string) (string, error) {
	candidate, where := binary, "given"
	if candidate == "" {
		candidate, where = os.Getenv("SIWA_MOCK_BINARY"), "from SIWA_MOCK_BINARY"
	}
	if candidate == "" {
		candidate, where = "siwa-mock", "on PATH"
	}
	path, err := exec.LookPath(candidate)
	if err != nil {
		return "", fmt.Errorf("siwa-mock binary not found: '%s' (%s) is not an executable file; get the release binary: %s; or %s",
			candidate, where, GetRelease, Hint)
	}
	return path, nil
}

// Start returns $SIWA_MOCK_URL's mock when set, else starts one from the binary; t.Cleanup stops it
// and every test fails at once with the mock's stderr when it does not start.
func Start(t testing.TB, options ...Options) *Mock {
	t.Helper()
	var opts Options
	if len(options) > 0 {
		opts = options[0]
	}
	if running := os.Getenv("SIWA_MOCK_URL"); running != "" {
		mock, err := Connect(running, opts)
		if err != nil {
			t.Fatal(err)
		}
		return mock
	}
	mock, err := Launch(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mock.Stop)
	return mock
}

// Connect returns a mock someone else runs (e.g. SIWA_MOCK_URL from docker compose) once it answers
// GET /mock/health; Stop leaves it running. Of opts, Binary (for SignIn and the other CLI verbs) and SMTP
// count: its SMTP listener comes from SIWA_MOCK_SMTP.
func Connect(url string, options ...Options) (*Mock, error) {
	var opts Options
	if len(options) > 0 {
		opts = options[0]
	}
	mock := &Mock{URL: strings.TrimRight(url, "/"), Binary: opts.Binary, AdminToken: os.Getenv("SIWA_MOCK_ADMIN_TOKEN")}
	if err := mock.smtpFromEnvironment(opts.SMTP); err != nil {
		return nil, err
	}
	if _, err := mock.Health(); err != nil {
		return nil, err
	}
	return mock, nil
}

// smtpFromEnvironment reads SIWA_MOCK_SMTP (HOST:PORT) for a mock someone else runs: its SMTP port
// cannot be learned from its URL, so wanting SMTP without it is an error rather than a guess.
func (m *Mock) smtpFromEnvironment(want bool) error {
	address := os.Getenv("SIWA_MOCK_SMTP")
	if address == "" {
		if want {
			return fmt.Errorf("the SMTP listener of the mock at %s (SIWA_MOCK_URL) is unknown: set SIWA_MOCK_SMTP to the HOST:PORT "+
				"its `siwa-mock smtp listening on` line printed (serve --smtp-port)", m.URL)
		}
		return nil
	}
	return m.setSMTP(address)
}

func (m *Mock) setSMTP(address string) error {
	host, port, err := net.SplitHostPort(strings.TrimSpace(address))
	number, perr := strconv.Atoi(port)
	if err != nil || perr != nil || host == "" {
		return fmt.Errorf("SIWA_MOCK_SMTP=%q is not HOST:PORT", address)
	}
	m.SMTPHost, m.SMTPPort = host, number
	return nil
}

// SMTPAddr is SMTPHost:SMTPPort, for net/smtp.SendMail or the backend's mail settings.
func (m *Mock) SMTPAddr() string { return net.JoinHostPort(m.SMTPHost, strconv.Itoa(m.SMTPPort)) }

// Launch starts `siwa-mock serve --port 0` and returns once its ready line names the port; Stop ends it.
func Launch(opts Options) (*Mock, error) {
	path, err := FindBinary(opts.Binary)
	if err != nil {
		return nil, err
	}
	args := []string{"serve", "--host", "127.0.0.1", "--port", "0"}
	if opts.Scenario != "" {
		args = append(args, "--scenario", opts.Scenario)
	}
	if opts.SMTP {
		args = append(args, "--smtp-port", "0")
	}
	args = append(args, opts.Args...)
	log, err := os.CreateTemp("", "siwa-mock-*.log")
	if err != nil {
		return nil, err
	}
	defer log.Close()
	cmd := exec.Command(path, args...)
	cmd.Stderr = log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("siwa-mock did not start (%s): %v", path, err)
	}
	mock := &Mock{Binary: path, AdminToken: os.Getenv("SIWA_MOCK_ADMIN_TOKEN"), LogPath: log.Name(), cmd: cmd, done: make(chan struct{})}
	lines := make(chan []string, 1)
	go func() {
		// The HTTP line first; with SMTP, the SMTP line comes after the HTTP one(s).
		reader := bufio.NewReader(stdout)
		var read []string
		for {
			line, err := reader.ReadString('\n')
			read = append(read, strings.TrimSpace(line))
			if err != nil || !opts.SMTP || strings.HasPrefix(read[len(read)-1], smtpReadyPrefix) {
				break
			}
		}
		lines <- read
		io.Copy(io.Discard, reader) // keep draining until the mock exits
	}()
	go func() { cmd.Wait(); close(mock.done) }()
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	failed := func(reason string) error {
		mock.stopProcess()
		stderr, _ := os.ReadFile(log.Name())
		os.Remove(log.Name())
		return fmt.Errorf("siwa-mock did not start (%s %s): %s; its stderr:\n%s", path, strings.Join(args, " "), reason, strings.TrimSpace(string(stderr)))
	}
	select {
	case read := <-lines:
		last := read[len(read)-1]
		if !strings.HasPrefix(read[0], readyPrefix) || opts.SMTP && !strings.HasPrefix(last, smtpReadyPrefix) {
			<-mock.done
			return nil, failed(fmt.Sprintf("exited with %v before its ready line (it printed %q)", cmd.ProcessState, strings.Join(read, "\n")))
		}
		mock.URL = strings.TrimPrefix(read[0], readyPrefix)
		if opts.SMTP {
			if err := mock.setSMTP(strings.TrimPrefix(last, smtpReadyPrefix)); err != nil {
				return nil, failed(err.Error())
			}
		}
		return mock, nil
	case <-time.After(timeout):
		return nil, failed(fmt.Sprintf("printed no ready line in %v", timeout))
	}
}

// Stop sends SIGTERM to the mock this Mock started (in-flight requests finish), SIGKILL after 10 s;
// then its stderr log is deleted, so a run leaves no files behind.
func (m *Mock) Stop() {
	m.stopProcess()
	if m.LogPath != "" {
		os.Remove(m.LogPath)
		m.LogPath = ""
	}
}

func (m *Mock) stopProcess() {
	if m.cmd == nil || m.cmd.Process == nil {
		return
	}
	m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.done:
	case <-time.After(10 * time.Second):
		m.cmd.Process.Kill()
		<-m.done
	}
	m.cmd = nil
}

// Run runs the binary with args and returns its stdout; a non-zero exit is an error with its stderr.
func (m *Mock) Run(args ...string) (string, error) {
	if m.Binary == "" {
		path, err := FindBinary("")
		if err != nil {
			return "", err
		}
		m.Binary = path
	}
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, m.Binary, args...) // killed at the deadline, as the other helpers' runs
	cmd.Env = os.Environ()
	if m.AdminToken != "" {
		cmd.Env = append(cmd.Env, "SIWA_MOCK_ADMIN_TOKEN="+m.AdminToken)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("siwa-mock %s did not finish within %v: %s", args[0], RunTimeout, strings.TrimSpace(stderr.String()))
		}
		return "", fmt.Errorf("siwa-mock %s failed (%v): %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// SignInOptions are `siwa-mock signin`'s: the client (default com.example.web), scopes (name, email;
// default none), nonce, and the key the client secret is signed with.
type SignInOptions struct {
	Client string
	Scopes []string
	Nonce  string
	KeyOptions
}

// KeyOptions sign a client secret with your team's own key (a scenario with its own teams:); empty
// fields are the built-in scenario's published test key (team ABCDE12345, key KEY1234567).
type KeyOptions struct {
	TeamID string // the client secret's iss (--team-id)
	KeyID  string // its kid (--key-id)
	Key    string // the .p8 file (--key)
}

func (k KeyOptions) flags() []string {
	var flags []string
	for _, pair := range [][2]string{{"--team-id", k.TeamID}, {"--key-id", k.KeyID}, {"--key", k.Key}} {
		if pair[1] != "" {
			flags = append(flags, pair[0], pair[1])
		}
	}
	return flags
}

// SignInResult is what `siwa-mock signin` prints: the token response, the verified claims and, on a
// first authorization with scopes, the user object Apple posts once.
type SignInResult struct {
	TokenResponse map[string]any `json:"token_response"`
	Claims        map[string]any `json:"claims"`
	User          map[string]any `json:"user"`
}

// IDToken is the token response's id_token.
func (r SignInResult) IDToken() string { s, _ := r.TokenResponse["id_token"].(string); return s }

// SignIn runs the web flow via `siwa-mock signin` and returns verified tokens.
func (m *Mock) SignIn(user string, options ...SignInOptions) (SignInResult, error) {
	var opts SignInOptions
	if len(options) > 0 {
		opts = options[0]
	}
	if opts.Client == "" {
		opts.Client = "com.example.web"
	}
	args := []string{"signin", "--url", m.URL, "--user", user, "--client", opts.Client}
	if len(opts.Scopes) > 0 {
		args = append(args, "--scope", strings.Join(opts.Scopes, " "))
	}
	if opts.Nonce != "" {
		args = append(args, "--nonce", opts.Nonce)
	}
	var result SignInResult
	out, err := m.Run(append(args, opts.flags()...)...)
	if err != nil {
		return result, err
	}
	return result, json.Unmarshal([]byte(out), &result)
}

// ClientSecret mints an ES256 client secret with `siwa-mock client-secret`: the built-in scenario's
// test key, or KeyOptions{TeamID, KeyID, Key} for your team's own.
func (m *Mock) ClientSecret(client string, key ...KeyOptions) (string, error) {
	args := []string{"client-secret", "--client-id", client}
	if len(key) > 0 {
		args = append(args, key[0].flags()...)
	}
	out, err := m.Run(args...)
	return strings.TrimSpace(out), err
}

// Verify returns the claims of an id_token that `siwa-mock verify` accepts; audience and nonce are
// checked when not empty.
func (m *Mock) Verify(idToken, audience, nonce string) (map[string]any, error) {
	args := []string{"verify", "--url", m.URL}
	if audience != "" {
		args = append(args, "--audience", audience)
	}
	if nonce != "" {
		args = append(args, "--nonce", nonce)
	}
	out, err := m.Run(append(args, idToken)...)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "claims: ") {
			var claims map[string]any
			return claims, json.Unmarshal([]byte(strings.TrimPrefix(line, "claims: ")), &claims)
		}
	}
	return nil, errors.New("siwa-mock verify printed no claims line")
}

// Request calls the control API (docs/control-api.md) and decodes the JSON answer; a non-2xx answer is an error.
func (m *Mock) Request(method, path string, body any) (any, error) {
	return m.request(method, path, body, 15*time.Second)
}

func (m *Mock) request(method, path string, body any, timeout time.Duration) (any, error) {
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		reader = bytes.NewReader(data)
	}
	request, err := http.NewRequest(method, m.URL+path, reader)
	if err != nil {
		return nil, err
	}
	if body != nil {
		request.Header.Set("Content-Type", "application/json")
	}
	if m.AdminToken != "" {
		request.Header.Set("Authorization", "Bearer "+m.AdminToken)
	}
	// Client.Timeout bounds the whole exchange, body included; no redirect is followed, since it would
	// carry the admin token to wherever it points.
	client := &http.Client{Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	response, err := client.Do(request)
	if err != nil {
		return nil, m.callError(method, path, err, timeout)
	}
	defer response.Body.Close()
	data, err := io.ReadAll(io.LimitReader(response.Body, MaxAnswerBytes+1))
	if err != nil {
		return nil, m.callError(method, path, err, timeout)
	}
	if len(data) > MaxAnswerBytes {
		return nil, fmt.Errorf("%s %s: the answer is larger than %d MiB; refused", method, path, MaxAnswerBytes>>20)
	}
	if response.StatusCode/100 == 3 {
		return nil, fmt.Errorf("%s %s answered %d (a redirect to %s): not followed, so the admin token stays with the mock",
			method, path, response.StatusCode, orNowhere(response.Header.Get("Location")))
	}
	if response.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s %s answered %d: %s", method, path, response.StatusCode, data)
	}
	if len(data) == 0 {
		return nil, nil
	}
	var decoded any
	return decoded, json.Unmarshal(data, &decoded)
}

func (m *Mock) callError(method, path string, err error, timeout time.Duration) error {
	if errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err) {
		return fmt.Errorf("%s %s%s: no complete answer within %v", method, m.URL, path, timeout)
	}
	return fmt.Errorf("%s %s%s: %v; is the mock running? %s", method, m.URL, path, err, Hint)
}

func orNowhere(location string) string {
	if location == "" {
		return "nowhere"
	}
	return location
}

func (m *Mock) object(method, path string, body any) (map[string]any, error) {
	answer, err := m.Request(method, path, body)
	object, _ := answer.(map[string]any)
	return object, err
}

func (m *Mock) Health() (map[string]any, error) { return m.object("GET", "/mock/health", nil) }
func (m *Mock) Reset() (map[string]any, error)  { return m.object("POST", "/mock/reset", nil) }
func (m *Mock) Clock() (map[string]any, error)  { return m.object("GET", "/mock/clock", nil) }

// AdvanceClock moves the mock's clock: "90s", "1h30m", "1d", "-2d".
func (m *Mock) AdvanceClock(by string) (map[string]any, error) {
	return m.object("POST", "/mock/clock", map[string]any{"advance": by})
}
func (m *Mock) SetClock(to string) (map[string]any, error) {
	return m.object("POST", "/mock/clock", map[string]any{"set": to})
}
func (m *Mock) FreezeClock(frozen bool) (map[string]any, error) {
	return m.object("POST", "/mock/clock", map[string]any{"freeze": frozen})
}

// AddFault adds a fault rule such as {"id": "down", "match": "POST /auth/token", "status": 503}.
func (m *Mock) AddFault(rule map[string]any) (map[string]any, error) {
	return m.object("POST", "/mock/faults", rule)
}
func (m *Mock) RemoveFault(id string) error {
	_, err := m.Request("DELETE", "/mock/faults/"+url.PathEscape(id), nil)
	return err
}

// Faults lists the fault rules with their counters.
func (m *Mock) Faults() ([]map[string]any, error) { return m.list("/mock/faults", "faults") }

// Users lists the scenario's users.
func (m *Mock) Users() ([]map[string]any, error) { return m.list("/mock/users", "users") }
func (m *Mock) User(id string) (map[string]any, error) {
	return m.object("GET", "/mock/users/"+url.PathEscape(id), nil)
}
func (m *Mock) AddUser(user map[string]any) (map[string]any, error) {
	return m.object("POST", "/mock/users", user)
}
func (m *Mock) UpdateUser(id string, changes map[string]any) (map[string]any, error) {
	return m.object("PATCH", "/mock/users/"+url.PathEscape(id), changes)
}
func (m *Mock) RevokeUser(id string) (map[string]any, error) {
	return m.UpdateUser(id, map[string]any{"credential_state": "revoked"})
}
func (m *Mock) DeleteUser(id string) error {
	_, err := m.Request("DELETE", "/mock/users/"+url.PathEscape(id), nil)
	return err
}

// Requests lists the journal of what your backend sent; filters: path, client_id, user.
func (m *Mock) Requests(filters map[string]string) ([]map[string]any, error) {
	query := url.Values{}
	for key, value := range filters {
		query.Set(key, value)
	}
	path := "/mock/requests"
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	return m.list(path, "requests")
}

func (m *Mock) list(path, key string) ([]map[string]any, error) {
	answer, err := m.Request("GET", path, nil)
	if err != nil {
		return nil, err
	}
	object, _ := answer.(map[string]any)
	if object == nil {
		return nil, fmt.Errorf("GET %s answered %v, not an object", path, answer)
	}
	return entries(object, key), nil
}

// entries: the objects of the list under key.
func entries(object map[string]any, key string) []map[string]any {
	list, _ := object[key].([]any)
	entries := make([]map[string]any, 0, len(list))
	for _, entry := range list {
		object, _ := entry.(map[string]any)
		entries = append(entries, object)
	}
	return entries
}
func (m *Mock) ClearRequests() error {
	_, err := m.Request("DELETE", "/mock/requests", nil)
	return err
}

// Mail lists the relay's stored records, oldest first (docs/relay-mail.md#the-mailbox-mockmail);
// filters: relay_address, real_address, team, sender, status, since.
func (m *Mock) Mail(filters map[string]string) ([]map[string]any, error) {
	return m.list("/mock/mail"+query(filters, ""), "messages")
}

// WaitForMail returns the records matching filters (as Mail) as soon as one is stored: one long poll,
// GET /mock/mail?…&wait=, which answers at once when one already is (a timeout of at most an hour).
// When nothing matching came, the error is the mock's own no_mail text: the filters, the time waited
// and what the mailbox holds (docs/relay-mail.md).
func (m *Mock) WaitForMail(filters map[string]string, timeout time.Duration) ([]map[string]any, error) {
	path := "/mock/mail" + query(filters, fmt.Sprintf("%dms", timeout.Milliseconds())) // the mock reads it
	wait := timeout
	if wait < 0 {
		wait = 0 // refused at once, with the mock's reason
	}
	answer, err := m.request("GET", path, nil, wait+15*time.Second)
	if err != nil {
		return nil, err
	}
	object, _ := answer.(map[string]any)
	if messages := entries(object, "messages"); len(messages) > 0 {
		return messages, nil
	}
	if text, ok := object["no_mail"].(string); ok {
		return nil, errors.New(text)
	}
	return nil, fmt.Errorf("GET %s: no mail (this mock does not say why: older than the helper?)", path)
}

// ClearMail empties the mailbox and the relay's daily counts (DELETE /mock/mail).
func (m *Mock) ClearMail() error {
	_, err := m.Request("DELETE", "/mock/mail", nil)
	return err
}

func query(filters map[string]string, wait string) string {
	values := url.Values{}
	for key, value := range filters {
		values.Set(key, value)
	}
	if wait != "" {
		values.Set("wait", wait)
	}
	if len(values) == 0 {
		return ""
	}
	return "?" + values.Encode()
}
