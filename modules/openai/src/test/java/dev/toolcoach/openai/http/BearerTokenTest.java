package dev.toolcoach.openai.http;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bearer scheme is matched in any case, as RFC 7235 has it; the token exactly. */
class BearerTokenTest {

    @Test
    void theSchemeInAnyCaseAndTheTokenExactly() {
        assertTrue(BearerToken.matches("Bearer s3cret", "s3cret"));
        assertTrue(BearerToken.matches("bearer s3cret", "s3cret"));
        assertTrue(BearerToken.matches("BEARER  s3cret ", "s3cret"));
        assertFalse(BearerToken.matches("Bearer S3CRET", "s3cret"));
        assertFalse(BearerToken.matches("Bearer s3cret2", "s3cret"));
        assertFalse(BearerToken.matches("Basic s3cret", "s3cret"));
        assertFalse(BearerToken.matches("s3cret", "s3cret"));
        assertFalse(BearerToken.matches("Bearer", "s3cret"));
        assertFalse(BearerToken.matches(null, "s3cret"));
    }
}
