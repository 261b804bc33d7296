package siwamock.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/** The shared cases (clients/spec/cases/*.json, described in its README) against this helper. */
@ExtendWith(SiwaMockExtension.class)
class CasesTest {
    static final Path REPO = Path.of(RelayMailTest.repositoryFile("clients/spec/cases")).getParent().getParent().getParent();

    @SuppressWarnings("unchecked")
    static Map<String, Object> obj(Map<String, Object> args, String name) {
        return (Map<String, Object>) args.get(name);
    }

    static String str(Map<String, Object> args, String name) {
        return (String) args.get(name);
    }

    /** "300ms", "5s", "1m30s" as a Duration (Java's own parser wants "PT5S" and has no "ms"). */
    static java.time.Duration duration(String text) {
        return text.endsWith("ms") ? java.time.Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)))
                : java.time.Duration.parse("PT" + text.toUpperCase());
    }

    static Map<String, String> filters(Map<String, Object> args) {
        Map<String, String> filters = new LinkedHashMap<>();
        if (args.containsKey("filters")) obj(args, "filters").forEach((k, v) -> filters.put(k, String.valueOf(v)));
        return filters;
    }

    @SuppressWarnings("unchecked")
    static Object call(SiwaMock m, String verb, Map<String, Object> a) {
        switch (verb) {
            case "health": return m.health();
            case "reset": return m.reset();
            case "sign_in": {
                SiwaMock.SignIn s = m.signIn(a.containsKey("user") ? str(a, "user") : "alice",
                        a.containsKey("client") ? str(a, "client") : "com.example.web",
                        a.containsKey("scopes") ? (List<String>) a.get("scopes") : List.of(), str(a, "nonce"),
                        str(a, "team_id"), str(a, "key_id"), str(a, "key"));
                Map<String, Object> result = new HashMap<>();
                result.put("token_response", s.tokenResponse);
                result.put("claims", s.claims);
                result.put("user", s.user);
                return result;
            }
            case "client_secret":
                return m.clientSecret(a.containsKey("client") ? str(a, "client") : "com.example.web", str(a, "team_id"), str(a, "key_id"), str(a, "key"));
            case "verify": return m.verify(str(a, "id_token"), str(a, "audience"), str(a, "nonce"));
            case "clock": return m.clock();
            case "advance_clock": return m.advanceClock(str(a, "by"));
            case "set_clock": return m.setClock(str(a, "to"));
            case "freeze_clock": return m.freezeClock(!Boolean.FALSE.equals(a.get("frozen")));
            case "add_fault": return m.addFault(obj(a, "rule"));
            case "remove_fault": m.removeFault(str(a, "fault_id")); return null;
            case "faults": return m.faults();
            case "users": return m.users();
            case "user": return m.user(str(a, "user"));
            case "add_user": return m.addUser(obj(a, "user"));
            case "update_user": return m.updateUser(str(a, "user"), obj(a, "changes"));
            case "revoke_user": return m.revokeUser(str(a, "user"));
            case "delete_user": m.deleteUser(str(a, "user")); return null;
            case "requests": return m.requests(filters(a));
            case "clear_requests": m.clearRequests(); return null;
            case "mail": return m.mail(filters(a));
            case "wait_for_mail":
                return m.waitForMail(filters(a), duration(a.containsKey("timeout") ? str(a, "timeout") : "5s"));
            case "clear_mail": m.clearMail(); return null;
            case "request": return m.request(str(a, "method"), str(a, "path"), a.get("body"));
            default: throw new AssertionError("no runner entry for the verb " + verb);
        }
    }

    static Object at(Object value, String path) {
        if (path.isEmpty()) return value;
        for (String part : path.split("\\.")) {
            if (value instanceof List<?> list) {
                if (part.equals("#")) {
                    value = (long) list.size();
                    continue;
                }
                int index = Integer.parseInt(part);
                if (index < 0) index += list.size();
                value = index >= 0 && index < list.size() ? list.get(index) : null;
            } else if (value instanceof Map<?, ?> map) {
                value = map.get(part);
            } else {
                return null;
            }
        }
        return value;
    }

    static Object resolve(Object value, Map<String, Object> saved) {
        if (value instanceof String s && s.startsWith("$repo/")) return REPO.resolve(s.substring(6)).toString();
        if (value instanceof String s && s.startsWith("$")) {
            int dot = s.indexOf('.');
            return dot < 0 ? saved.get(s.substring(1)) : at(saved.get(s.substring(1, dot)), s.substring(dot + 1));
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put((String) k, resolve(v, saved)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> out.add(resolve(v, saved)));
            return out;
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    @TestFactory
    Stream<DynamicTest> sharedCases(SiwaMock mock) throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(REPO.resolve("clients/spec/cases"))) {
            files = listing.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(!files.isEmpty(), "no shared cases");
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            Map<String, Object> spec = Json.object(Files.readString(file));
            List<Object> steps = (List<Object>) spec.get("steps");
            if (!spec.containsKey("mock")) {
                mock.reset();
                runSteps(mock, file, steps);
                return;
            }
            Map<String, Object> own = obj(spec, "mock"); // a mock of its own
            try (SiwaMock m = SiwaMock.start(null, (String) resolve(own.get("scenario"), Map.of()), Boolean.TRUE.equals(own.get("smtp")))) {
                runSteps(m, file, steps);
            }
        }));
    }

    @SuppressWarnings("unchecked")
    static void runSteps(SiwaMock mock, Path file, List<Object> steps) throws IOException {
        Map<String, Object> saved = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            Map<String, Object> step = (Map<String, Object>) steps.get(i);
            if (step.containsKey("send_mail")) {
                Map<String, Object> mail = obj(step, "send_mail");
                RelayMailTest.sendMail(mock, str(mail, "from"), str(mail, "to"), str(mail, "subject"));
                continue;
            }
            String verb = (String) step.get("verb");
            String where = file.getFileName() + " step " + (i + 1) + " (" + verb + ")";
            Map<String, Object> args = step.containsKey("args") ? (Map<String, Object>) resolve(step.get("args"), saved) : Map.of();
            if (step.containsKey("error")) {
                var error = assertThrows(SiwaMock.SiwaMockException.class, () -> call(mock, verb, args), where);
                assertTrue(error.getMessage().contains((String) step.get("error")), where + ": " + error.getMessage());
                continue;
            }
            Object result = call(mock, verb, args);
            if (step.containsKey("expect")) {
                for (Map.Entry<String, Object> expect : ((Map<String, Object>) step.get("expect")).entrySet()) {
                    assertEquals(resolve(expect.getValue(), saved), at(result, expect.getKey()), where + ": " + expect.getKey() + " of " + result);
                }
            }
            if (step.containsKey("matches")) {
                assertNotNull(result, where);
                assertTrue(Pattern.compile((String) step.get("matches")).matcher((String) result).find(), where + ": " + result);
            }
            if (step.containsKey("as")) saved.put((String) step.get("as"), result);
        }
    }
}
