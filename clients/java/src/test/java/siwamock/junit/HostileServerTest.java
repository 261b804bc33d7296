package siwamock.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The hostile-server cases (clients/spec/hostile_server.py; issue 36, findings 5 and 6). */
class HostileServerTest {
    static Process server;
    static SiwaMock hostile;

    @BeforeAll
    static void start() throws IOException {
        server = new ProcessBuilder("python3", RelayMailTest.repositoryFile("clients/spec/hostile_server.py"))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertTrue(line != null && line.startsWith("hostile listening on "), String.valueOf(line));
        hostile = new SiwaMock(line.substring("hostile listening on ".length()), null, null, null, "t0ken");
    }

    @AfterAll
    static void stop() throws Exception {
        server.getOutputStream().close();
        server.waitFor();
    }

    @Test
    void aServerDrippingOneBytePerHalfSecondMeetsTheOverallDeadline() {
        long began = System.nanoTime();
        var error = assertThrows(SiwaMock.SiwaMockException.class, () -> hostile.request("GET", "/mock/drip", null, Duration.ofSeconds(1)));
        assertTrue(error.getMessage().matches("GET http://127\\.0\\.0\\.1:\\d+/mock/drip: no complete answer within 1s"), error.getMessage());
        assertTrue(System.nanoTime() - began < 10_000_000_000L, "a per-read timeout would wait for the server's 20 s of drip");
    }

    @Test
    void anEndlessAnswerIsCutAt16MiB() {
        var error = assertThrows(SiwaMock.SiwaMockException.class,
                () -> hostile.request("GET", "/mock/endless", null, Duration.ofSeconds(30)));
        assertEquals("GET /mock/endless: the answer is larger than 16 MiB; refused", error.getMessage());
    }

    @Test
    void aRedirectIsNotFollowedAndTheTokenStays() {
        var error = assertThrows(SiwaMock.SiwaMockException.class, () -> hostile.request("GET", "/mock/redirect", null));
        assertTrue(error.getMessage().matches(
                "GET /mock/redirect answered 302 \\(a redirect to http://127\\.0\\.0\\.1:\\d+/mock/landing\\): not followed.*"),
                error.getMessage());
        assertEquals(Map.of("authorization", List.of(), "requests", 0L), hostile.request("GET", "/mock/stolen", null));
    }
}
