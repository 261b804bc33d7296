// The shared cases (clients/spec/cases/*.json, described in its README) against this helper.
package siwamocktest

import (
	"encoding/json"
	"fmt"
	"net/smtp"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

type sharedStep struct {
	// SendMail: one SMTP transaction to the case's relay instead of a verb (cases/README.md).
	SendMail *struct{ From, To, Subject string } `json:"send_mail"`
	Verb     string                              `json:"verb"`
	Args     map[string]any                      `json:"args"`
	Expect   map[string]any                      `json:"expect"`
	Matches  *string                             `json:"matches"`
	Error    *string                             `json:"error"`
	As       string                              `json:"as"`
}

func str(args map[string]any, name string) string { s, _ := args[name].(string); return s }

func obj(args map[string]any, name string) map[string]any {
	o, _ := args[name].(map[string]any)
	return o
}

func strs(args map[string]any, name string) map[string]string {
	out := map[string]string{}
	for key, value := range obj(args, name) {
		out[key] = fmt.Sprint(value)
	}
	return out
}

func keyOptions(a map[string]any) KeyOptions {
	return KeyOptions{TeamID: str(a, "team_id"), KeyID: str(a, "key_id"), Key: str(a, "key")}
}

// callShared calls a verb with the spec's arguments; the result as JSON would decode it (for the paths).
func callShared(m *Mock, verb string, a map[string]any) (any, error) {
	var result any
	var err error
	switch verb {
	case "health":
		result, err = m.Health()
	case "reset":
		result, err = m.Reset()
	case "sign_in":
		user := str(a, "user")
		if user == "" {
			user = "alice"
		}
		var scopes []string
		for _, scope := range a["scopes"].([]any) {
			scopes = append(scopes, scope.(string))
		}
		result, err = m.SignIn(user, SignInOptions{Client: str(a, "client"), Scopes: scopes, Nonce: str(a, "nonce"), KeyOptions: keyOptions(a)})
	case "client_secret":
		result, err = m.ClientSecret(str(a, "client"), keyOptions(a))
	case "verify":
		result, err = m.Verify(str(a, "id_token"), str(a, "audience"), str(a, "nonce"))
	case "clock":
		result, err = m.Clock()
	case "advance_clock":
		result, err = m.AdvanceClock(str(a, "by"))
	case "set_clock":
		result, err = m.SetClock(str(a, "to"))
	case "freeze_clock":
		frozen, given := a["frozen"].(bool)
		result, err = m.FreezeClock(frozen || !given)
	case "add_fault":
		result, err = m.AddFault(obj(a, "rule"))
	case "remove_fault":
		err = m.RemoveFault(str(a, "fault_id"))
	case "faults":
		result, err = m.Faults()
	case "users":
		result, err = m.Users()
	case "user":
		result, err = m.User(str(a, "user"))
	case "add_user":
		result, err = m.AddUser(obj(a, "user"))
	case "update_user":
		result, err = m.UpdateUser(str(a, "user"), obj(a, "changes"))
	case "revoke_user":
		result, err = m.RevokeUser(str(a, "user"))
	case "delete_user":
		err = m.DeleteUser(str(a, "user"))
	case "requests":
		result, err = m.Requests(strs(a, "filters"))
	case "clear_requests":
		err = m.ClearRequests()
	case "mail":
		result, err = m.Mail(strs(a, "filters"))
	case "wait_for_mail":
		timeout := 5 * time.Second
		if text := str(a, "timeout"); text != "" {
			if timeout, err = time.ParseDuration(text); err != nil {
				return nil, err
			}
		}
		result, err = m.WaitForMail(strs(a, "filters"), timeout)
	case "clear_mail":
		err = m.ClearMail()
	case "request":
		result, err = m.Request(str(a, "method"), str(a, "path"), a["body"])
	default:
		return nil, fmt.Errorf("no runner entry for the verb %s", verb)
	}
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(result) // typed results (SignInResult, []map) as plain JSON values
	if err != nil {
		return nil, err
	}
	var plain any
	return plain, json.Unmarshal(data, &plain)
}

func pathIn(value any, path string) any {
	if path == "" {
		return value
	}
	for _, part := range strings.Split(path, ".") {
		switch v := value.(type) {
		case []any:
			if part == "#" {
				value = float64(len(v))
				continue
			}
			index, _ := strconv.Atoi(part)
			if index < 0 {
				index += len(v)
			}
			if index < 0 || index >= len(v) {
				return nil
			}
			value = v[index]
		case map[string]any:
			value = v[part]
		default:
			return nil
		}
	}
	return value
}

func resolveShared(value any, saved map[string]any, repo string) any {
	switch v := value.(type) {
	case string:
		if strings.HasPrefix(v, "$repo/") {
			return filepath.Join(repo, strings.TrimPrefix(v, "$repo/"))
		}
		if strings.HasPrefix(v, "$") {
			name, path, _ := strings.Cut(v[1:], ".")
			return pathIn(saved[name], path)
		}
	case map[string]any:
		out := map[string]any{}
		for key, item := range v {
			out[key] = resolveShared(item, saved, repo)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = resolveShared(item, saved, repo)
		}
		return out
	}
	return value
}

func TestSharedCases(t *testing.T) {
	repo, _ := filepath.Abs("../../..")
	files, _ := filepath.Glob(filepath.Join(repo, "clients/spec/cases/*.json"))
	if len(files) == 0 {
		t.Fatal("no shared cases under clients/spec/cases")
	}
	suite := Start(t)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			var c struct {
				Steps []sharedStep
				Mock  *struct {
					Scenario string
					SMTP     bool
				}
			}
			if err == nil {
				err = json.Unmarshal(data, &c)
			}
			if err != nil {
				t.Fatal(err)
			}
			mock := suite
			if c.Mock != nil { // a mock of its own
				scenario, _ := resolveShared(c.Mock.Scenario, nil, repo).(string)
				if mock, err = Launch(Options{Scenario: scenario, SMTP: c.Mock.SMTP}); err != nil {
					t.Fatal(err)
				}
				defer mock.Stop()
			} else if _, err := mock.Reset(); err != nil {
				t.Fatal(err)
			}
			saved := map[string]any{}
			for i, step := range c.Steps {
				if mail := step.SendMail; mail != nil {
					message := "From: <" + mail.From + ">\r\nTo: " + mail.To + "\r\nSubject: " + mail.Subject + "\r\n\r\nHello\r\n"
					if err := smtp.SendMail(mock.SMTPAddr(), nil, mail.From, []string{mail.To}, []byte(message)); err != nil {
						t.Fatalf("step %d (send_mail): %v", i+1, err)
					}
					continue
				}
				where := fmt.Sprintf("step %d (%s)", i+1, step.Verb)
				args, _ := resolveShared(step.Args, saved, repo).(map[string]any)
				if args == nil {
					args = map[string]any{}
				}
				if _, ok := args["scopes"]; !ok {
					args["scopes"] = []any{}
				}
				result, err := callShared(mock, step.Verb, args)
				if step.Error != nil {
					if err == nil || !strings.Contains(err.Error(), *step.Error) {
						t.Fatalf("%s: want an error with %q, got %v", where, *step.Error, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				for path, expected := range step.Expect {
					if got, want := pathIn(result, path), resolveShared(expected, saved, repo); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: %s is %#v, want %#v (in %v)", where, path, got, want, result)
					}
				}
				if step.Matches != nil {
					if s, _ := result.(string); !regexp.MustCompile(*step.Matches).MatchString(s) {
						t.Fatalf("%s: %q does not match %s", where, s, *step.Matches)
					}
				}
				if step.As != "" {
					saved[step.As] = result
				}
			}
		})
	}
}
