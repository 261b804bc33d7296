package siwamock.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The extension's own tests, against the real binary (clients/run.sh sets SIWA_MOCK_BINARY). */
@ExtendWith(SiwaMockExtension.class)
class SiwaMockExtensionTest {
    @Test
    void signInReturnsVerifiedTokensWithScopesAndNonce(SiwaMock mock) {
        SiwaMock.SignIn result = mock.signIn("alice", "com.example.web", List.of("name", "email"), "n-1");
        assertEquals("alice@example.com", result.claims.get("email"));
        assertEquals("n-1", result.claims.get("nonce"));
        assertEquals("com.example.web", result.claims.get("aud"));
        assertEquals("Alice", ((Map<?, ?>) result.user.get("name")).get("firstName"));
        assertEquals(result.claims.get("sub"), mock.verify(result.idToken(), "com.example.web", "n-1").get("sub"));
    }

    @Test
    void aTamperedTokenFailsVerification(SiwaMock mock) {
        String[] alice = mock.signIn("alice").idToken().split("\\.");
        String[] bob = mock.signIn("bob").idToken().split("\\.");
        // bob's claims under alice's signature
        SiwaMock.SiwaMockException error = assertThrows(SiwaMock.SiwaMockException.class,
                () -> mock.verify(alice[0] + "." + bob[1] + "." + alice[2], null, null));
        assertTrue(error.getMessage().contains("verify failed"), error.getMessage());
    }

    @Test
    void clientSecretIsAcceptedByTheTokenEndpoint(SiwaMock mock) throws Exception {
        String form = "grant_type=client_credentials&scope=user.migration&client_id=com.example.web&client_secret="
                + mock.clientSecret("com.example.web");
        HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create(mock.url() + "/auth/token"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(Json.object(response.body()).containsKey("access_token"));
    }

    @Test
    void aFaultMakesSignInFailWithTheMocksAnswer(SiwaMock mock) {
        mock.addFault(Map.of("id", "token-down", "match", "POST /auth/token", "status", 503));
        SiwaMock.SiwaMockException error = assertThrows(SiwaMock.SiwaMockException.class, () -> mock.signIn("alice"));
        assertTrue(error.getMessage().contains("503"), error.getMessage());
        mock.removeFault("token-down");
        assertEquals("com.example.web", mock.signIn("alice").claims.get("aud"));
    }

    @Test
    void clockUsersAndJournal(SiwaMock mock) {
        long before = ((Number) mock.clock().get("epoch_seconds")).longValue();
        mock.advanceClock("1d");
        assertTrue(((Number) mock.clock().get("epoch_seconds")).longValue() >= before + 86400);
        mock.addUser(Map.of("id", "dave", "email", "dave@example.com"));
        assertEquals(mock.user("dave").get("sub"), mock.signIn("dave").claims.get("sub"));
        mock.revokeUser("dave");
        List<Map<String, Object>> tokens = mock.requests(Map.of("path", "/auth/token", "user", "dave"));
        assertEquals(200L, ((Number) tokens.get(tokens.size() - 1).get("status")).longValue());
        mock.clearRequests();
        assertEquals(List.of(), mock.requests(Map.of()));
    }

    @Test
    void eachTestStartsFromTheScenario(SiwaMock mock) {
        assertEquals(List.of(), mock.requests(Map.of()));
        SiwaMock.SiwaMockException error = assertThrows(SiwaMock.SiwaMockException.class, () -> mock.user("dave"));
        assertTrue(error.getMessage().contains("404"), error.getMessage());
    }

    @Test
    void aWrongBinaryPathSaysHowToGetOne() {
        SiwaMock.SiwaMockException error = assertThrows(SiwaMock.SiwaMockException.class,
                () -> SiwaMock.start("/nonexistent/siwa-mock", null));
        assertTrue(error.getMessage().contains("siwa-mock binary not found"), error.getMessage());
        assertTrue(error.getMessage().contains("SIWA_MOCK_BINARY"), error.getMessage());
        assertTrue(error.getMessage().contains("swift build"), error.getMessage());
    }

    @Test
    void aMockThatCannotStartShowsItsStderr(@TempDir Path directory) throws Exception {
        Path scenario = Files.writeString(directory.resolve("broken.yaml"), "users:\n  - id: [\n");
        SiwaMock.SiwaMockException error = assertThrows(SiwaMock.SiwaMockException.class,
                () -> SiwaMock.start(null, scenario.toString()));
        assertTrue(error.getMessage().contains("did not start"), error.getMessage());
        assertTrue(error.getMessage().contains("broken.yaml:"), error.getMessage());
    }
}
