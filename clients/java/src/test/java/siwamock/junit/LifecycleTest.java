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
}
