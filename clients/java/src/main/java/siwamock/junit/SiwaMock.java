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
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
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
    static final String SMTP_READY_PREFIX = "siwa-mock smtp listening on ";
    /** A control answer larger than this is refused (docs/test-helpers.md). */
    public static final int MAX_ANSWER_BYTES = 16 << 20;
    public static final String HINT =
            "use the siwa-mock-junit jar that carries it (x86_64 Linux), or build it with `swift build -c release --product siwa-mock` and set SIWA_MOCK_BINARY=.build/release/siwa-mock, "
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
    private final String adminToken;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private String smtpHost;
    /** One run of the binary (signIn, clientSecret, verify) at most. */
    Duration runTimeout = Duration.ofSeconds(60);
    private int smtpPort;

    private SiwaMock(String url, String binary, Process process, Path logPath) {
        this(url, binary, process, logPath, System.getenv("SIWA_MOCK_ADMIN_TOKEN"));
    }

    SiwaMock(String url, String binary, Process process, Path logPath, String adminToken) {
        this.adminToken = adminToken;
        this.url = url.replaceAll("/+$", "");
        this.binary = binary;
        this.process = process;
        this.logPath = logPath;
    }

    /** The base URL, e.g. http://127.0.0.1:41234. */
    public String url() {
        return url;
    }

    /** The relay's SMTP listener's host (a mock started with SMTP, or $SIWA_MOCK_SMTP), else null. */
    public String smtpHost() {
        return smtpHost;
    }

    /** The relay's SMTP listener's port, else 0. */
    public int smtpPort() {
        return smtpPort;
    }

    private void setSmtp(String address) {
        int colon = address.trim().lastIndexOf(':');
        try {
            smtpPort = Integer.parseInt(address.trim().substring(colon + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new SiwaMockException("SIWA_MOCK_SMTP='" + address + "' is not HOST:PORT");
        }
        if (colon <= 0) throw new SiwaMockException("SIWA_MOCK_SMTP='" + address + "' is not HOST:PORT");
        smtpHost = address.trim().substring(0, colon);
    }

    /** The mock's stderr (request logs) when this object started it, else null; {@link #close()} deletes it. */
    public Path logPath() {
        return logPath;
    }

    /**
     * The explicit path, else $SIWA_MOCK_BINARY, else the binary the jar carries (extracted to a per-user
     * cache and checked: {@link PackagedBinary}; a broken one fails rather than falling through), else
     * siwa-mock on PATH; a clear error with the hint otherwise.
     */
    public static String findBinary(String binary) {
        String fromEnv = System.getenv("SIWA_MOCK_BINARY");
        if (binary == null && (fromEnv == null || fromEnv.isEmpty())) {
            String packaged = PackagedBinary.path();
            if (packaged != null) return packaged;
        }
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
        return startOrConnect(binary, scenario, false);
    }

    /** The same, with the relay's SMTP listener when {@code smtp} (see {@link #start(String, String, boolean, String...)}). */
    public static SiwaMock startOrConnect(String binary, String scenario, boolean smtp) {
        String running = System.getenv("SIWA_MOCK_URL");
        return running != null && !running.isEmpty() ? connect(running, smtp) : start(binary, scenario, smtp);
    }

    /** Starts {@code siwa-mock serve --port 0} and returns once its ready line names the port it chose. */
    public static SiwaMock start(String binary, String scenario, String... args) {
        return start(binary, scenario, false, args);
    }

    /**
     * The same; {@code smtp} adds the private email relay's SMTP listener ({@code --smtp-port 0},
     * docs/relay-mail.md) and also waits for its ready line, {@code siwa-mock smtp listening on HOST:PORT}:
     * {@link #smtpHost()}, {@link #smtpPort()}.
     */
    public static SiwaMock start(String binary, String scenario, boolean smtp, String... args) {
        String path = findBinary(binary);
        List<String> command = new ArrayList<>(List.of(path, "serve", "--host", "127.0.0.1", "--port", "0"));
        if (scenario != null) command.addAll(List.of("--scenario", scenario));
        if (smtp) command.addAll(List.of("--smtp-port", "0"));
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
        CompletableFuture<List<String>> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            List<String> read = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                // The HTTP line first; with SMTP, the SMTP line comes after the HTTP one(s).
                String line;
                do {
                    line = out.readLine();
                    read.add(line == null ? "" : line.trim());
                } while (line != null && smtp && !line.startsWith(SMTP_READY_PREFIX));
                ready.complete(read);
                while (out.readLine() != null) { } // keep draining until the mock exits
            } catch (IOException e) {
                read.add("");
                ready.complete(read);
            }
        }, "siwa-mock-stdout");
        reader.setDaemon(true);
        reader.start();
        List<String> lines = List.of("");
        String reason;
        try {
            lines = ready.get(30, TimeUnit.SECONDS);
            boolean complete = lines.get(0).startsWith(READY_PREFIX)
                    && (!smtp || lines.get(lines.size() - 1).startsWith(SMTP_READY_PREFIX));
            reason = complete ? null : "exited before its ready line (it printed '" + String.join("\n", lines) + "')";
        } catch (TimeoutException e) {
            reason = "printed no ready line in 30s";
        } catch (Exception e) {
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
        SiwaMock mock = new SiwaMock(lines.get(0).substring(READY_PREFIX.length()), path, process, log);
        if (smtp) mock.setSmtp(lines.get(lines.size() - 1).substring(SMTP_READY_PREFIX.length()));
        return mock;
    }

    /** A mock someone else runs (e.g. SIWA_MOCK_URL from docker compose); close() leaves it running. */
    public static SiwaMock connect(String url) {
        return connect(url, false);
    }

    /**
     * The same; its SMTP listener cannot be learned from its URL, so {@link #smtpHost()}/{@link #smtpPort()}
     * come from $SIWA_MOCK_SMTP ({@code HOST:PORT}, what its {@code siwa-mock smtp listening on} line printed),
     * and {@code smtp} without it is an error rather than a guess.
     */
    public static SiwaMock connect(String url, boolean smtp) {
        SiwaMock mock = new SiwaMock(url, null, null, null);
        String address = System.getenv("SIWA_MOCK_SMTP");
        if (address != null && !address.isEmpty()) {
            mock.setSmtp(address);
        } else if (smtp) {
            throw new SiwaMockException("the SMTP listener of the mock at " + url + " (SIWA_MOCK_URL) is unknown: set SIWA_MOCK_SMTP "
                    + "to the HOST:PORT its `siwa-mock smtp listening on` line printed (serve --smtp-port)");
        }
        mock.health();
        return mock;
    }

    /**
     * SIGTERM to the mock this object started (in-flight requests finish), SIGKILL after 10 s; then its
     * stderr log is deleted, so a run leaves no files behind.
     */
    @Override
    public void close() {
        if (process != null) stop(process);
        if (logPath != null) {
            try {
                Files.deleteIfExists(logPath);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
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
            Path out = Files.createTempFile("siwa-mock-run-", ".out");
            Path err = Files.createTempFile("siwa-mock-run-", ".err");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
                if (adminToken != null) builder.environment().put("SIWA_MOCK_ADMIN_TOKEN", adminToken);
                Process child = builder.start();
                if (!child.waitFor(runTimeout.toMillis(), TimeUnit.MILLISECONDS)) { // as the other helpers' runs
                    child.destroyForcibly().waitFor();
                    throw new SiwaMockException("siwa-mock " + args[0] + " did not finish within " + seconds(runTimeout) + ": "
                            + Files.readString(err).trim());
                }
                if (child.exitValue() != 0) {
                    throw new SiwaMockException("siwa-mock " + args[0] + " failed (exit " + child.exitValue() + "): "
                            + Files.readString(err).trim());
                }
                return Files.readString(out);
            } finally {
                Files.deleteIfExists(out);
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
        return signIn(user, client, scopes, nonce, null, null, null);
    }

    /**
     * The same, with the client secret signed by your team's own key (a scenario with its own
     * {@code teams:}): team id, key id and .p8 file; null for the built-in scenario's published test key.
     */
    public SignIn signIn(String user, String client, List<String> scopes, String nonce, String teamId, String keyId, String keyFile) {
        List<String> args = new ArrayList<>(List.of("signin", "--url", url, "--user", user, "--client", client));
        if (!scopes.isEmpty()) args.addAll(List.of("--scope", String.join(" ", scopes)));
        if (nonce != null) args.addAll(List.of("--nonce", nonce));
        args.addAll(keyFlags(teamId, keyId, keyFile));
        return new SignIn(Json.object(run(args.toArray(new String[0]))));
    }

    private static List<String> keyFlags(String teamId, String keyId, String keyFile) {
        List<String> flags = new ArrayList<>();
        if (teamId != null) flags.addAll(List.of("--team-id", teamId));
        if (keyId != null) flags.addAll(List.of("--key-id", keyId));
        if (keyFile != null) flags.addAll(List.of("--key", keyFile));
        return flags;
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

    /** The same with your own team, key id and .p8 file (null for the test key's). */
    public String clientSecret(String client, String teamId, String keyId, String keyFile) {
        List<String> args = new ArrayList<>(List.of("client-secret", "--client-id", client));
        args.addAll(keyFlags(teamId, keyId, keyFile));
        return run(args.toArray(new String[0])).trim();
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
        return request(method, path, body, Duration.ofSeconds(15));
    }

    /**
     * One exchange, bounded: {@code timeout} covers the whole call (headers and body, not each read), an
     * answer over {@link #MAX_ANSWER_BYTES} is refused, and a redirect is never followed (the client's
     * default, {@code Redirect.NEVER}): it would carry the admin token to wherever it points.
     */
    Object request(String method, String path, Object body, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path)).timeout(timeout)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(Json.write(body)));
        if (body != null) request.header("Content-Type", "application/json");
        if (adminToken != null) request.header("Authorization", "Bearer " + adminToken);
        String call = method + " " + path;
        CompletableFuture<HttpResponse<String>> pending = http.sendAsync(request.build(), info -> new Bounded(call));
        HttpResponse<String> response;
        try {
            response = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw new SiwaMockException(method + " " + url + path + ": no complete answer within " + seconds(timeout));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SiwaMockException) throw (SiwaMockException) e.getCause();
            if (e.getCause() instanceof HttpTimeoutException) {
                throw new SiwaMockException(method + " " + url + path + ": no complete answer within " + seconds(timeout));
            }
            throw new SiwaMockException(method + " " + url + path + ": " + e.getCause() + "; is the mock running? " + HINT);
        } catch (InterruptedException e) {
            pending.cancel(true);
            Thread.currentThread().interrupt();
            throw new SiwaMockException("interrupted: " + call);
        }
        if (response.statusCode() / 100 == 3) {
            throw new SiwaMockException(call + " answered " + response.statusCode() + " (a redirect to "
                    + response.headers().firstValue("Location").orElse("nowhere") + "): not followed, so the admin token stays with the mock");
        }
        if (response.statusCode() / 100 != 2) {
            throw new SiwaMockException(call + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body().isEmpty() ? null : Json.parse(response.body());
    }

    private static String seconds(Duration duration) {
        return duration.toString().substring(2).toLowerCase();
    }

    /** A body collected up to {@link #MAX_ANSWER_BYTES}; past it the exchange is cancelled and the call refused. */
    private static final class Bounded implements HttpResponse.BodySubscriber<String> {
        private final CompletableFuture<String> result = new CompletableFuture<>();
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        private final String call;
        private Flow.Subscription subscription;

        Bounded(String call) {
            this.call = call;
        }

        @Override
        public CompletionStage<String> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (result.isDone()) return; // refused already; what was in flight before the cancel is dropped
            for (ByteBuffer buffer : buffers) {
                if (bytes.size() + buffer.remaining() > MAX_ANSWER_BYTES) {
                    subscription.cancel();
                    result.completeExceptionally(new SiwaMockException(
                            call + ": the answer is larger than " + (MAX_ANSWER_BYTES >> 20) + " MiB; refused"));
                    return;
                }
                byte[] chunk = new byte[buffer.remaining()];
                buffer.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toString(StandardCharsets.UTF_8));
        }
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
        return (List<Map<String, Object>>) object("GET", "/mock/requests" + query(filters, null), null).get("requests");
    }

    public void clearRequests() { request("DELETE", "/mock/requests", null); }

    private static String query(Map<String, String> filters, String wait) {
        StringBuilder query = new StringBuilder();
        for (Map.Entry<String, String> filter : filters.entrySet()) {
            query.append(query.length() == 0 ? "?" : "&").append(segment(filter.getKey())).append('=')
                    .append(segment(filter.getValue()));
        }
        if (wait != null) query.append(query.length() == 0 ? "?" : "&").append("wait=").append(wait);
        return query.toString();
    }

    // -- the relay's mailbox (docs/relay-mail.md#the-mailbox-mockmail) -----------------------------

    /** The stored records, oldest first; filters: relay_address, real_address, team, sender, status, since. */
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> mail(Map<String, String> filters) {
        return (List<Map<String, Object>>) object("GET", "/mock/mail" + query(filters, null), null).get("messages");
    }

    /**
     * The records matching {@code filters} (as {@link #mail}) as soon as one is stored: one long poll,
     * {@code GET /mock/mail?…&wait=}, which answers at once when one already is (a timeout of at most an
     * hour). When nothing matching came, throws a {@link SiwaMockException} with the mock's own
     * {@code no_mail} text: the filters, the time waited and what the mailbox holds (docs/relay-mail.md).
     */
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> waitForMail(Map<String, String> filters, Duration timeout) {
        String path = "/mock/mail" + query(filters, timeout.toMillis() + "ms"); // the mock reads it
        Duration within = (timeout.isNegative() ? Duration.ZERO : timeout).plusSeconds(15); // negative: refused at once
        Map<String, Object> answer = (Map<String, Object>) request("GET", path, null, within);
        List<Map<String, Object>> messages = (List<Map<String, Object>>) answer.get("messages");
        if (!messages.isEmpty()) return messages;
        Object noMail = answer.get("no_mail");
        throw new SiwaMockException(noMail instanceof String ? (String) noMail
                : "GET " + path + ": no mail (this mock does not say why: older than the helper?)");
    }

    /** Empties the mailbox and the relay's daily counts ({@code DELETE /mock/mail}). */
    public void clearMail() { request("DELETE", "/mock/mail", null); }
}
