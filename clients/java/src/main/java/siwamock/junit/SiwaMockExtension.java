package siwamock.junit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5: one siwa-mock per test class, reset to its scenario before each test, stopped after the class.
 * Tests and lifecycle methods take a {@link SiwaMock} parameter.
 *
 * <pre>
 * &#64;ExtendWith(SiwaMockExtension.class)
 * class SignInTest {
 *     &#64;Test void signsIn(SiwaMock mock) { assertEquals("com.example.web", mock.signIn("alice").claims.get("aud")); }
 * }
 * </pre>
 *
 * The mock is $SIWA_MOCK_URL when set, else the binary ($SIWA_MOCK_BINARY, else the one this jar carries
 * when it carries one, else siwa-mock on PATH) started with --port 0. For another binary or a scenario file:
 * {@code @RegisterExtension static SiwaMockExtension siwa = new SiwaMockExtension().binary(path).scenario(file);}
 * {@code .smtp(true)} adds the private email relay's SMTP listener ({@link SiwaMock#smtpHost()},
 * {@link SiwaMock#smtpPort()}; with $SIWA_MOCK_URL they come from $SIWA_MOCK_SMTP).
 */
public class SiwaMockExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SiwaMockExtension.class);
    private String binary;
    private String scenario;
    private boolean smtp;

    public SiwaMockExtension binary(String path) {
        this.binary = path;
        return this;
    }

    public SiwaMockExtension scenario(String file) {
        this.scenario = file;
        return this;
    }

    /** Also start the relay's SMTP listener (docs/relay-mail.md). */
    public SiwaMockExtension smtp(boolean on) {
        this.smtp = on;
        return this;
    }

    /** Closed by JUnit when the class's store goes away (after the class), which stops the mock. */
    private static final class Resource implements ExtensionContext.Store.CloseableResource {
        final SiwaMock mock;

        Resource(SiwaMock mock) {
            this.mock = mock;
        }

        @Override
        public void close() {
            mock.close();
        }
    }

    private SiwaMock mock(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getParent().isPresent() && classContext.getTestMethod().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(NAMESPACE)
                .getOrComputeIfAbsent("mock", key -> new Resource(SiwaMock.startOrConnect(binary, scenario, smtp)), Resource.class)
                .mock;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        mock(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        mock(context).reset();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SiwaMock.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return mock(context);
    }
}
