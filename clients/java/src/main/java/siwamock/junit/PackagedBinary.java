package siwamock.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import siwamock.junit.SiwaMock.SiwaMockException;

/**
 * The binary the siwa-mock-junit jar carries (scripts/package-java.sh adds the static x86_64 Linux
 * build as a resource, with its SHA-256), extracted once to a per-user cache:
 * {@code $XDG_CACHE_HOME/siwa-mock/SHA256/siwa-mock}, else {@code ~/.cache/siwa-mock/SHA256/siwa-mock}.
 * Every JVM checks the cached file's SHA-256 before using it and extracts it again when it is missing or
 * differs; an extraction is written to a temporary file in the same directory, checked, made executable
 * and renamed into place atomically, so JVMs starting side by side never run a half-written file.
 */
final class PackagedBinary {
    static final String RESOURCE = "siwa-mock-linux-x86_64";
    private static String found;

    private PackagedBinary() {}

    /** The checked binary; null when the jar carries none (built from the sources) or this is not x86_64 Linux. */
    static synchronized String path() {
        if (found != null) return found;
        var recorded = PackagedBinary.class.getResource(RESOURCE + ".sha256");
        String arch = System.getProperty("os.arch", "");
        boolean linuxX64 = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                && (arch.equals("amd64") || arch.equals("x86_64"));
        if (recorded == null || !linuxX64) return null;
        try {
            String sha256;
            try (InputStream in = recorded.openStream()) {
                sha256 = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+")[0];
            }
            Path target = cacheDirectory().resolve(sha256).resolve("siwa-mock");
            if (!(Files.isRegularFile(target) && Files.isExecutable(target) && sha256.equals(digest(Files.newInputStream(target), null)))) {
                extract(sha256, target);
            }
            if (!Files.isExecutable(target)) {
                throw new SiwaMockException("the extracted siwa-mock " + target + " is not executable (a noexec file system?); "
                        + "set XDG_CACHE_HOME to a directory that allows running programs");
            }
            return found = target.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("extracting the siwa-mock binary the jar carries: " + e, e);
        }
    }

    static Path cacheDirectory() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"), ".cache");
        return base.resolve("siwa-mock");
    }

    private static void extract(String sha256, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        Path part = Files.createTempFile(target.getParent(), "siwa-mock-", ".part");
        try (InputStream in = PackagedBinary.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new SiwaMockException("the siwa-mock-junit jar records a binary (" + RESOURCE + ".sha256) but does not carry it ("
                        + RESOURCE + "); use an intact siwa-mock-junit jar");
            }
            String actual;
            try (OutputStream out = Files.newOutputStream(part)) {
                actual = digest(in, out);
            }
            if (!actual.equals(sha256)) {
                throw new SiwaMockException("the siwa-mock binary in the siwa-mock-junit jar has SHA-256 " + actual + ", not the "
                        + sha256 + " the jar recorded; use an intact siwa-mock-junit jar");
            }
            Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(part);
        }
    }

    /** The hex SHA-256 of everything {@code in} holds (closed here), copied to {@code out} when not null. */
    private static String digest(InputStream in, OutputStream out) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (DigestInputStream digesting = new DigestInputStream(in, sha)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = digesting.read(buffer)) > 0; ) {
                if (out != null) out.write(buffer, 0, n);
            }
        }
        StringBuilder hex = new StringBuilder();
        for (byte b : sha.digest()) hex.append(String.format("%02x", b)); // not HexFormat: Java 11 runs this too
        return hex.toString();
    }
}
