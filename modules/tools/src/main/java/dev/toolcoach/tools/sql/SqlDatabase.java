package dev.toolcoach.tools.sql;

import org.h2.tools.RunScript;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.UUID;

/**
 * An embedded in-memory H2 database that tools can only read: it is created and filled by an
 * owner account, and tools connect as a second account granted nothing but SELECT.
 */
public final class SqlDatabase implements AutoCloseable {

    private static final String SAMPLE_SCRIPT = "/dev/toolcoach/tools/sql/sample-company.sql";
    private static final String READER = "TOOL_READER";

    private final String url;
    private final String readerPassword;
    /** Held open: an in-memory database lives while a connection does, and the owner shuts it down. */
    private final Connection owner;

    private SqlDatabase(String url, String readerPassword, Connection owner) {
        this.url = url;
        this.readerPassword = readerPassword;
        this.owner = owner;
    }

    /** The sample company database (departments, employees, projects, assignments). */
    public static SqlDatabase sampleCompany() {
        try (InputStream in = SqlDatabase.class.getResourceAsStream(SAMPLE_SCRIPT)) {
            if (in == null) throw new IllegalStateException("sample schema " + SAMPLE_SCRIPT + " is missing from the classpath");
            return create("sample_company", new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read sample schema " + SAMPLE_SCRIPT + ": " + e.getMessage(), e);
        }
    }

    /** A fresh database filled by the SQL script; its name only labels it, every call makes a new one. */
    public static SqlDatabase create(String name, Reader script) {
        String url = "jdbc:h2:mem:" + name + "-" + UUID.randomUUID();
        String ownerPassword = randomPassword();
        String readerPassword = randomPassword();
        try {
            Connection owner = DriverManager.getConnection(url, "OWNER", ownerPassword);
            try {
                RunScript.execute(owner, script);
                try (Statement s = owner.createStatement()) {
                    s.execute("CREATE USER " + READER + " PASSWORD '" + readerPassword + "'");
                    s.execute("GRANT SELECT ON SCHEMA PUBLIC TO " + READER);
                }
            } catch (SQLException | RuntimeException e) {
                owner.close();
                throw e;
            }
            return new SqlDatabase(url, readerPassword, owner);
        } catch (SQLException e) {
            throw new IllegalArgumentException("cannot create database '" + name + "': " + e.getMessage(), e);
        }
    }

    /** A new connection of the read-only account; the caller closes it. */
    Connection readerConnection() throws SQLException {
        Connection connection = DriverManager.getConnection(url, READER, readerPassword);
        connection.setReadOnly(true);
        return connection;
    }

    @Override
    public void close() throws SQLException {
        try (Statement s = owner.createStatement()) {
            s.execute("SHUTDOWN");
        } finally {
            owner.close();
        }
    }

    private static String randomPassword() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
