package siwamock.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** waitForMail against mail sent over SMTP to the relay (its own mock, started with .smtp(true)). */
class RelayMailTest {
    // scenarios/relay-mail.yaml registers shop.example for team ABCDE12345, whose user bob has this relay
    // address (the built-in scenario registers no sender, so every message there is refused).
    static final String BOB = "k7x2m9q4ab@privaterelay.appleid.com";

    @RegisterExtension
    static SiwaMockExtension siwa = new SiwaMockExtension().scenario(repositoryFile("scenarios/relay-mail.yaml")).smtp(true);

    /** The file in the checkout, found from the working directory up (clients/run.sh runs in clients/). */
    static String repositoryFile(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(relative))) return dir.resolve(relative).toString();
        }
        throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath());
    }

    /** Hello from shop.example to bob's relay address. */
    static void sendMail(SiwaMock mock, String subject) throws IOException {
        sendMail(mock, "hello@shop.example", BOB, subject);
    }

    /** A minimal SMTP exchange (RFC 5321: greeting, EHLO, MAIL, RCPT, DATA, QUIT); throws on any unexpected reply. */
    static void sendMail(SiwaMock mock, String from, String to, String subject) throws IOException {
        try (Socket socket = new Socket(mock.smtpHost(), mock.smtpPort())) {
            socket.setSoTimeout(10_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.US_ASCII);
            String[][] steps = {
                {null, "220"},
                {"EHLO client.example", "250"},
                {"MAIL FROM:<" + from + ">", "250"},
                {"RCPT TO:<" + to + ">", "250"},
                {"DATA", "354"},
                {"From: <" + from + ">\r\nTo: " + to + "\r\nSubject: " + subject + "\r\n\r\nHello\r\n.", "250"},
                {"QUIT", "221"},
            };
            for (String[] step : steps) {
                if (step[0] != null) {
                    out.write(step[0] + "\r\n");
                    out.flush();
                }
                String line;
                do {
                    line = in.readLine();
                    if (line == null) throw new IOException((step[0] == null ? "greeting" : step[0]) + ": connection closed");
                } while (line.length() > 3 && line.charAt(3) == '-'); // a multiline reply's last line is "NNN text"
                if (!line.startsWith(step[1])) throw new IOException((step[0] == null ? "greeting" : step[0]) + ": " + line);
            }
        }
    }

    @Test
    void waitForMailReturnsAsSoonAsTheMessageArrives(SiwaMock mock) throws Exception {
        mock.clearMail();
        assertEquals(List.of(), mock.mail(Map.of("relay_address", BOB)));
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                Thread.sleep(300);
                sendMail(mock, "Your code is 123456");
            } catch (Exception e) {
                failure.set(e);
            }
        });
        long began = System.nanoTime();
        sender.start();
        List<Map<String, Object>> messages = mock.waitForMail(Map.of("relay_address", BOB, "status", "delivered"), Duration.ofSeconds(10));
        long elapsedMs = (System.nanoTime() - began) / 1_000_000;
        sender.join();
        assertNull(failure.get());
        assertTrue(elapsedMs >= 300 && elapsedMs < 3000, "answered after " + elapsedMs + " ms for mail sent after 300 ms");
        assertEquals(1, messages.size(), messages.toString());
        assertEquals("Your code is 123456", messages.get(0).get("subject"));
        assertEquals("bob@example.com", messages.get(0).get("delivered_to"));
        assertEquals(messages, mock.mail(Map.of("status", "delivered")));
    }

    @Test
    void waitForMailForMailThatNeverComesSaysWhatTheMailboxHolds(SiwaMock mock) throws Exception {
        mock.clearMail();
        sendMail(mock, "Welcome");
        long began = System.nanoTime();
        SiwaMock.SiwaMockException error = assertThrows(SiwaMock.SiwaMockException.class,
                () -> mock.waitForMail(Map.of("relay_address", BOB, "status", "rejected"), Duration.ofSeconds(1)));
        assertTrue(System.nanoTime() - began >= 1_000_000_000L);
        assertTrue(error.getMessage().matches("no mail matching relay_address=k7x2m9q4ab@privaterelay\\.appleid\\.com status=rejected in 1s; "
                + "the mailbox has 1 record: m\\d+ delivered hello@shop\\.example -> k7x2m9q4ab@privaterelay\\.appleid\\.com \"Welcome\""),
                error.getMessage());
    }

    @Test
    void withoutSiwaMockSmtpARunningMocksSmtpAddressIsUnknown(SiwaMock mock) {
        if (System.getenv("SIWA_MOCK_SMTP") != null) return; // the JVM's environment cannot be changed here
        SiwaMock.SiwaMockException error = assertThrows(SiwaMock.SiwaMockException.class, () -> SiwaMock.connect(mock.url(), true));
        assertTrue(error.getMessage().contains("set SIWA_MOCK_SMTP"), error.getMessage());
    }
}
