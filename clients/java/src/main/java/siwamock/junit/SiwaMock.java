package siwamock.junit;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A running siwa-mock (a fake of Apple's Sign in with Apple server): started from the binary with
 * {@link #start}, or a running one with {@link #connect}. Sign-in and client secrets are the binary's
 * own ({@code siwa-mock signin}, {@code siwa-mock client-secret}); the clock, fault, user and journal
 * verbs are thin wrappers over the control API (docs/control-api.md). JDK only.
 */
public final class SiwaMock implements AutoCloseable {
    static final String READY_PREFIX = "siwa-mock listening on ";
    public static final String HINT =
            "build it with `swift build -c release --product siwa-mock` and set SIWA_MOCK_BINARY=.build/release/siwa-mock, "
                    + "put siwa-mock on PATH, or set SIWA_MOCK_URL to a running mock";

    /** The mock did not start, a control call was refused, or a sign-in did not verify (the message says which). */
    public static final class SiwaMockException extends RuntimeException {
        public SiwaMockException(String message) {
            super(message);
        }
    }

    private final String url;
    private String binary;
    private final Process process;
    private final Path logPath;
    private final String adminToken = System.getenv("SIWA_MOCK_ADMIN_TOKEN");
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    private SiwaMock(String url, String binary, Process process, Path logPath) {
        this.url = url.replaceAll("/+$", "");
        this.binary = binary;
        this.process = process;
        this.logPath = logPath;
    }

    /** The base URL, e.g. http://127.0.0.1:41234. */
    public String url() {
        return url;
    }

    /** The mock's stderr (request logs) when this object started it, else null. */
    public Path logPath() {
        return logPath;
    }

    /** The explicit path, else $SIWA_MOCK_BINARY, else siwa-mock on PATH; a clear error with the hint otherwise. */
    public static String findBinary(String binary) {
        String fromEnv = System.getenv("SIWA_MOCK_BINARY");
        String candidate = binary != null ? binary : fromEnv != null && !fromEnv.isEmpty() ? fromEnv : "siwa-mock";
        String where = binary != null ? "given" : fromEnv != null && !fromEnv.isEmpty() ? "from SIWA_MOCK_BINARY" : "on PATH";
        if (candidate.contains("/")) {
            if (new File(candidate).canExecute()) return candidate;
        } else {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                File file = new File(dir, candidate);
                if (!dir.isEmpty() && file.canExecute()) return file.getPath();
            }
        }
        throw new SiwaMockException("siwa-mock binary not found: '" + candidate + "' (" + where
                + ") is not an executable file; " + HINT);
    }

    /** $SIWA_MOCK_URL when set, else a new mock from the binary (null: SIWA_MOCK_BINARY or PATH). */
    public static SiwaMock startOrConnect(String binary, String scenario) {
        String running = System.getenv("SIWA_MOCK_URL");
        return running != null && !running.isEmpty() ? connect(running) : start(binary, scenario);
    }

    /** Starts {@code siwa-mock serve --port 0} and returns once its ready line names the port it chose. */
    public static SiwaMock start(String binary, String scenario, String... args) {
        String path = findBinary(binary);
        List<String> command = new ArrayList<>(List.of(path, "serve", "--host", "127.0.0.1", "--port", "0"));
        if (scenario != null) command.addAll(List.of("--scenario", scenario));
        command.addAll(Arrays.asList(args));
        Path log;
        Process process;
        try {
            log = Files.createTempFile("siwa-mock-", ".log");
            process = new ProcessBuilder(command).redirectError(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new SiwaMockException("siwa-mock did not start (" + String.join(" ", command) + "): " + e.getMessage());
        }
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line = out.readLine();
                ready.complete(line == null ? "" : line.trim());
                while (out.readLine() != null) { } // keep draining until the mock exits
            } catch (IOException e) {
                ready.complete("");
            }
        }, "siwa-mock-stdout");
        reader.setDaemon(true);
        reader.start();
        String line;
        String reason;
        try {
            line = ready.get(30, TimeUnit.SECONDS);
            reason = line.startsWith(READY_PREFIX) ? null : "exited before its ready line (it printed '" + line + "')";
        } catch (TimeoutException e) {
            line = "";
            reason = "printed no ready line in 30s";
        } catch (Exception e) {
            line = "";
            reason = e.toString();
        }
        if (reason != null) {
            stop(process);
            String stderr;
            try {
                stderr = Files.readString(log).trim();
                Files.deleteIfExists(log);
            } catch (IOException e) {
                stderr = "(unreadable: " + e.getMessage() + ")";
            }
            if (process.exitValue() != 0 && reason.startsWith("exited")) reason += ", status " + process.exitValue();
            throw new SiwaMockException("siwa-mock did not start (" + String.join(" ", command) + "): " + reason
                    + "; its stderr:\n" + stderr);
        }
        return new SiwaMock(line.substring(READY_PREFIX.length()), path, process, log);
    }

    /** A mock someone else runs (e.g. SIWA_MOCK_URL from docker compose); close() leaves it running. */
    public static SiwaMock connect(String url) {
        SiwaMock mock = new SiwaMock(url, null, null, null);
        mock.health();
        return mock;
    }

    /** SIGTERM to the mock this object started (in-flight requests finish), SIGKILL after 10 s. */
    @Override
    public void close() {
        if (process != null) stop(process);
    }

    private static void stop(Process process) {
        process.destroy(); // SIGTERM
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    // -- the binary's own verbs ---------------------------------------------------------------------

    /** Runs the binary with args; its stdout, or an exception with its stderr for a non-zero exit. */
    public String run(String... args) {
        if (binary == null) binary = findBinary(null);
        List<String> command = new ArrayList<>(List.of(binary));
        command.addAll(Arrays.asList(args));
        try {
            Path err = Files.createTempFile("siwa-mock-run-", ".err");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectError(err.toFile());
                if (adminToken != null) builder.environment().put("SIWA_MOCK_ADMIN_TOKEN", adminToken);
                Process child = builder.start();
                String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!child.waitFor(60, TimeUnit.SECONDS)) child.destroyForcibly();
                if (child.exitValue() != 0) {
                    throw new SiwaMockException("siwa-mock " + args[0] + " failed (exit " + child.exitValue() + "): "
                            + Files.readString(err).trim());
                }
                return out;
            } finally {
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SiwaMockException("interrupted running siwa-mock " + args[0]);
        }
    }

    /** Alice's web sign-in to com.example.web, no scopes: see {@link #signIn(String, String, List, String)}. */
    public SignIn signIn(String user) {
        return signIn(user, "com.example.web", List.of(), null);
    }

    /**
     * The web flow via {@code siwa-mock signin}: the token response, the verified claims and, on a first
     * authorization with scopes, the user object Apple posts once. Scopes: "name", "email"; nonce may be null.
     */
    public SignIn signIn(String user, String client, List<String> scopes, String nonce) {
        List<String> args = new ArrayList<>(List.of("signin", "--url", url, "--user", user, "--client", client));
        if (!scopes.isEmpty()) args.addAll(List.of("--scope", String.join(" ", scopes)));
        if (nonce != null) args.addAll(List.of("--nonce", nonce));
        return new SignIn(Json.object(run(args.toArray(new String[0]))));
    }

    /** What {@code siwa-mock signin} printed. */
    public static final class SignIn {
        public final Map<String, Object> tokenResponse;
        public final Map<String, Object> claims;
        public final Map<String, Object> user;

        @SuppressWarnings("unchecked")
        SignIn(Map<String, Object> json) {
            tokenResponse = (Map<String, Object>) json.get("token_response");
            claims = (Map<String, Object>) json.get("claims");
            user = (Map<String, Object>) json.get("user");
        }

        public String idToken() {
            return (String) tokenResponse.get("id_token");
        }
    }

    /** An ES256 client secret from {@code siwa-mock client-secret} (the built-in scenario's test key). */
    public String clientSecret(String client) {
        return run("client-secret", "--client-id", client).trim();
    }

    /** The same with your own team, key id and .p8 file. */
    public String clientSecret(String client, String teamId, String keyId, String keyFile) {
        return run("client-secret", "--client-id", client, "--team-id", teamId, "--key-id", keyId, "--key", keyFile).trim();
    }

    /** Claims of an id_token that {@code siwa-mock verify} accepts; audience and nonce are checked when not null. */
    public Map<String, Object> verify(String idToken, String audience, String nonce) {
        List<String> args = new ArrayList<>(List.of("verify", "--url", url));
        if (audience != null) args.addAll(List.of("--audience", audience));
        if (nonce != null) args.addAll(List.of("--nonce", nonce));
        args.add(idToken);
        for (String line : run(args.toArray(new String[0])).split("\n")) {
            if (line.startsWith("claims: ")) return Json.object(line.substring("claims: ".length()));
        }
        throw new SiwaMockException("siwa-mock verify printed no claims line");
    }

    // -- the control API (docs/control-api.md) -----------------------------------------------------

    /** A control API call; the decoded JSON answer (null for none), an exception for a non-2xx answer. */
    public Object request(String method, String path, Object body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(15))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(Json.write(body)));
        if (body != null) request.header("Content-Type", "application/json");
        if (adminToken != null) request.header("Authorization", "Bearer " + adminToken);
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new SiwaMockException(method + " " + url + path + ": " + e + "; is the mock running? " + HINT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SiwaMockException("interrupted: " + method + " " + path);
        }
        if (response.statusCode() / 100 != 2) {
            throw new SiwaMockException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body().isEmpty() ? null : Json.parse(response.body());
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> object(String method, String path, Object body) {
        return (Map<String, Object>) request(method, path, body);
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    public Map<String, Object> health() { return object("GET", "/mock/health", null); }
    public Map<String, Object> reset() { return object("POST", "/mock/reset", null); }
    public Map<String, Object> clock() { return object("GET", "/mock/clock", null); }
    /** "90s", "1h30m", "1d", "-2d". */
    public Map<String, Object> advanceClock(String by) { return object("POST", "/mock/clock", Map.of("advance", by)); }
    public Map<String, Object> setClock(String to) { return object("POST", "/mock/clock", Map.of("set", to)); }
    public Map<String, Object> freezeClock(boolean frozen) { return object("POST", "/mock/clock", Map.of("freeze", frozen)); }
    /** A rule such as {"id": "down", "match": "POST /auth/token", "status": 503}. */
    public Map<String, Object> addFault(Map<String, Object> rule) { return object("POST", "/mock/faults", rule); }
    public void removeFault(String id) { request("DELETE", "/mock/faults/" + segment(id), null); }
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> faults() { return (List<Map<String, Object>>) object("GET", "/mock/faults", null).get("faults"); }
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> users() { return (List<Map<String, Object>>) object("GET", "/mock/users", null).get("users"); }
    public Map<String, Object> user(String id) { return object("GET", "/mock/users/" + segment(id), null); }
    public Map<String, Object> addUser(Map<String, Object> user) { return object("POST", "/mock/users", user); }
    public Map<String, Object> updateUser(String id, Map<String, Object> changes) {
        return object("PATCH", "/mock/users/" + segment(id), changes);
    }
    public Map<String, Object> revokeUser(String id) { return updateUser(id, Map.of("credential_state", "revoked")); }
    public void deleteUser(String id) { request("DELETE", "/mock/users/" + segment(id), null); }

    /** The journal of what your backend sent; filters: path, client_id, user. */
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> requests(Map<String, String> filters) {
        StringBuilder query = new StringBuilder();
        for (Map.Entry<String, String> filter : filters.entrySet()) {
            query.append(query.length() == 0 ? "?" : "&").append(segment(filter.getKey())).append('=')
                    .append(segment(filter.getValue()));
        }
        return (List<Map<String, Object>>) object("GET", "/mock/requests" + query, null).get("requests");
    }

    public void clearRequests() { request("DELETE", "/mock/requests", null); }
}
