// The package's own tests, against the real binary (clients/run.sh sets SIWA_MOCK_BINARY).
package siwamocktest

import (
	"encoding/json"
	"net/http"
	"net/smtp"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestMockVerbs(t *testing.T) {
	mock := Start(t)
	run := func(name string, body func(t *testing.T)) {
		if _, err := mock.Reset(); err != nil {
			t.Fatal(err)
		}
		t.Run(name, body)
	}

	run("SignIn returns verified tokens with scopes and nonce", func(t *testing.T) {
		result, err := mock.SignIn("alice", SignInOptions{Scopes: []string{"name", "email"}, Nonce: "n-1"})
		if err != nil {
			t.Fatal(err)
		}
		if result.Claims["email"] != "alice@example.com" || result.Claims["nonce"] != "n-1" || result.Claims["aud"] != "com.example.web" {
			t.Fatalf("claims: %v", result.Claims)
		}
		if name, _ := result.User["name"].(map[string]any); name["firstName"] != "Alice" {
			t.Fatalf("user: %v", result.User)
		}
		claims, err := mock.Verify(result.IDToken(), "com.example.web", "n-1")
		if err != nil || claims["sub"] != result.Claims["sub"] {
			t.Fatalf("verify: %v %v", claims, err)
		}
	})

	run("a tampered token fails verification", func(t *testing.T) {
		alice, err := mock.SignIn("alice")
		if err != nil {
			t.Fatal(err)
		}
		bob, err := mock.SignIn("bob")
		if err != nil {
			t.Fatal(err)
		}
		a, b := strings.Split(alice.IDToken(), "."), strings.Split(bob.IDToken(), ".")
		// bob's claims under alice's signature
		if _, err := mock.Verify(a[0]+"."+b[1]+"."+a[2], "", ""); err == nil || !strings.Contains(err.Error(), "verify failed") {
			t.Fatalf("a tampered token verified: %v", err)
		}
	})

	run("ClientSecret is accepted by the token endpoint", func(t *testing.T) {
		secret, err := mock.ClientSecret("com.example.web")
		if err != nil {
			t.Fatal(err)
		}
		response, err := http.PostForm(mock.URL+"/auth/token", url.Values{
			"grant_type": {"client_credentials"}, "scope": {"user.migration"}, "client_id": {"com.example.web"}, "client_secret": {secret}})
		if err != nil {
			t.Fatal(err)
		}
		defer response.Body.Close()
		var tokens map[string]any
		json.NewDecoder(response.Body).Decode(&tokens)
		if response.StatusCode != 200 || tokens["access_token"] == nil {
			t.Fatalf("%d %v", response.StatusCode, tokens)
		}
	})

	run("a fault makes SignIn fail with the mock's answer", func(t *testing.T) {
		if _, err := mock.AddFault(map[string]any{"id": "token-down", "match": "POST /auth/token", "status": 503}); err != nil {
			t.Fatal(err)
		}
		if _, err := mock.SignIn("alice"); err == nil || !strings.Contains(err.Error(), "503") {
			t.Fatalf("sign-in through the fault: %v", err)
		}
		if err := mock.RemoveFault("token-down"); err != nil {
			t.Fatal(err)
		}
		if _, err := mock.SignIn("alice"); err != nil {
			t.Fatal(err)
		}
	})

	run("clock, users and journal", func(t *testing.T) {
		before, err := mock.Clock()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := mock.AdvanceClock("1d"); err != nil {
			t.Fatal(err)
		}
		after, _ := mock.Clock()
		if after["epoch_seconds"].(float64) < before["epoch_seconds"].(float64)+86400 {
			t.Fatalf("clock: %v then %v", before, after)
		}
		if _, err := mock.AddUser(map[string]any{"id": "dave", "email": "dave@example.com"}); err != nil {
			t.Fatal(err)
		}
		result, err := mock.SignIn("dave")
		if err != nil {
			t.Fatal(err)
		}
		dave, _ := mock.User("dave")
		if result.Claims["sub"] != dave["sub"] {
			t.Fatalf("sub %v, user %v", result.Claims["sub"], dave)
		}
		if _, err := mock.RevokeUser("dave"); err != nil {
			t.Fatal(err)
		}
		entries, err := mock.Requests(map[string]string{"path": "/auth/token", "user": "dave"})
		if err != nil || len(entries) == 0 || entries[len(entries)-1]["status"] != float64(200) {
			t.Fatalf("journal: %v %v", entries, err)
		}
		mock.ClearRequests()
		if entries, _ := mock.Requests(nil); len(entries) != 0 {
			t.Fatalf("journal after clearing: %v", entries)
		}
	})

	run("Reset returns to the scenario", func(t *testing.T) {
		if _, err := mock.User("dave"); err == nil || !strings.Contains(err.Error(), "404") {
			t.Fatalf("dave after reset: %v", err)
		}
	})
}

func TestAWrongBinaryPathSaysHowToGetOne(t *testing.T) {
	_, err := Launch(Options{Binary: "/nonexistent/siwa-mock"})
	if err == nil {
		t.Fatal("started a mock from a path that does not exist")
	}
	for _, want := range []string{"siwa-mock binary not found", "SIWA_MOCK_BINARY", "swift build", GetRelease} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestAMockThatCannotStartShowsItsStderr(t *testing.T) {
	scenario := filepath.Join(t.TempDir(), "broken.yaml")
	os.WriteFile(scenario, []byte("users:\n  - id: [\n"), 0o600)
	_, err := Launch(Options{Scenario: scenario})
	if err == nil || !strings.Contains(err.Error(), "did not start") || !strings.Contains(err.Error(), "broken.yaml:") {
		t.Fatalf("error without the mock's stderr: %v", err)
	}
}

// scenarios/relay-mail.yaml registers shop.example for team ABCDE12345, whose user bob has this relay
// address (the built-in scenario registers no sender, so every message there is refused).
const bob = "k7x2m9q4ab@privaterelay.appleid.com"

func sendMail(mock *Mock, subject string) error {
	message := "From: Shop <hello@shop.example>\r\nTo: " + bob + "\r\nSubject: " + subject + "\r\n\r\nHello Bob\r\n"
	return smtp.SendMail(mock.SMTPAddr(), nil, "hello@shop.example", []string{bob}, []byte(message))
}

func TestRelayMail(t *testing.T) {
	if os.Getenv("SIWA_MOCK_URL") != "" {
		t.Skip("starts its own mock with the relay scenario")
	}
	mock := Start(t, Options{Scenario: filepath.Join("..", "..", "..", "scenarios", "relay-mail.yaml"), SMTP: true})
	if mock.SMTPHost == "" || mock.SMTPPort == 0 {
		t.Fatalf("no SMTP address: %q %d", mock.SMTPHost, mock.SMTPPort)
	}

	t.Run("WaitForMail returns as soon as the message arrives", func(t *testing.T) {
		if err := mock.ClearMail(); err != nil {
			t.Fatal(err)
		}
		sent := make(chan error, 1)
		began := time.Now()
		time.AfterFunc(300*time.Millisecond, func() { sent <- sendMail(mock, "Your code is 123456") })
		messages, err := mock.WaitForMail(map[string]string{"relay_address": bob, "status": "delivered"}, 10*time.Second)
		elapsed := time.Since(began)
		if err := <-sent; err != nil {
			t.Fatal(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		if elapsed < 300*time.Millisecond || elapsed > 3*time.Second {
			t.Fatalf("answered after %v for mail sent after 300ms", elapsed)
		}
		if len(messages) != 1 || messages[0]["subject"] != "Your code is 123456" || messages[0]["delivered_to"] != "bob@example.com" {
			t.Fatalf("messages: %v", messages)
		}
		if all, err := mock.Mail(map[string]string{"status": "delivered"}); err != nil || len(all) != 1 || all[0]["id"] != messages[0]["id"] {
			t.Fatalf("Mail: %v %v", all, err)
		}
	})

	t.Run("WaitForMail for mail that never comes says what the mailbox holds", func(t *testing.T) {
		if err := mock.ClearMail(); err != nil {
			t.Fatal(err)
		}
		if err := sendMail(mock, "Welcome"); err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		_, err := mock.WaitForMail(map[string]string{"relay_address": bob, "status": "rejected"}, time.Second)
		if time.Since(began) < time.Second {
			t.Fatalf("gave up after %v", time.Since(began))
		}
		want := regexp.MustCompile(`^no mail matching relay_address=k7x2m9q4ab@privaterelay\.appleid\.com status=rejected in 1s; ` +
			`the mailbox has 1 record: m\d+ delivered hello@shop\.example -> k7x2m9q4ab@privaterelay\.appleid\.com "Welcome"$`)
		if err == nil || !want.MatchString(err.Error()) {
			t.Fatalf("error: %v", err)
		}
	})

	t.Run("a running mock's SMTP address comes from the environment", func(t *testing.T) {
		running := &Mock{URL: mock.URL}
		t.Setenv("SIWA_MOCK_SMTP", "")
		if err := running.smtpFromEnvironment(true); err == nil || !strings.Contains(err.Error(), "set SIWA_MOCK_SMTP") {
			t.Fatalf("error: %v", err)
		}
		t.Setenv("SIWA_MOCK_SMTP", mock.SMTPAddr())
		if err := running.smtpFromEnvironment(true); err != nil || running.SMTPPort != mock.SMTPPort {
			t.Fatalf("%v %d", err, running.SMTPPort)
		}
	})
}

func TestStopLeavesNoFilesBehind(t *testing.T) {
	mock, err := Launch(Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := mock.LogPath
	if _, err := os.Stat(log); err != nil {
		t.Fatalf("no stderr log while running: %v", err)
	}
	mock.Stop()
	if _, err := os.Stat(log); !os.IsNotExist(err) || mock.LogPath != "" {
		t.Fatalf("%s is still there after Stop (%v)", log, err)
	}
}
