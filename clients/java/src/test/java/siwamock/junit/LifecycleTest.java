package siwamock.junit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What starting and stopping leaves behind. */
class LifecycleTest {
    @Test
    void closeLeavesNoFilesBehind() {
        SiwaMock mock = SiwaMock.start(null, null);
        Path log = mock.logPath();
        assertTrue(Files.exists(log));
        mock.close();
        assertFalse(Files.exists(log), log + " is still there after close()");
    }

    @Test
    void aRunOfTheBinaryHasADeadline(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path binary = dir.resolve("siwa-mock");
        Files.writeString(binary, "#!/bin/sh\nexec sleep 30\n");
        assertTrue(binary.toFile().setExecutable(true));
        SiwaMock mock = new SiwaMock("http://127.0.0.1:9", binary.toString(), null, null, null);
        mock.runTimeout = java.time.Duration.ofMillis(200);
        long began = System.nanoTime();
        var error = org.junit.jupiter.api.Assertions.assertThrows(SiwaMock.SiwaMockException.class, () -> mock.clientSecret("com.example.web"));
        assertTrue(error.getMessage().startsWith("siwa-mock client-secret did not finish within 0.2s"), error.getMessage());
        assertTrue(System.nanoTime() - began < 10_000_000_000L);
    }
}
