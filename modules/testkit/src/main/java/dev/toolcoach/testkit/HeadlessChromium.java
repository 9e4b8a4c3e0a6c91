package dev.toolcoach.testkit;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.FluentWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.stream.Stream;

/**
 * Debian's headless Chromium driven through its chromedriver, for the browser tests. Both must be installed
 * ({@code apt-get install chromium chromium-driver}; CI's {@code .ci/run} installs them): a missing one fails the test
 * with that message, never skips it. Selenium is given both paths, so it downloads nothing.
 */
public final class HeadlessChromium implements AutoCloseable {

    public final ChromeDriver driver;

    public HeadlessChromium() {
        Path browser = executable("CHROMIUM_BIN", "chromium", "chromium-browser", "google-chrome");
        Path chromedriver = executable("CHROMEDRIVER_BIN", "chromedriver");
        ChromeOptions options = new ChromeOptions().setBinary(browser.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--window-size=1400,1000", "--no-first-run", "--disable-extensions");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    /** The browser console's messages at level SEVERE (script errors, refused loads) since the last call. */
    public List<String> consoleErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage).toList();
    }

    /** Saves a screenshot of the window as a PNG (under target/, for a person to look at). */
    public Path screenshot(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    /** Polls the page until {@code condition} holds, failing after 10 s with what was awaited. */
    public static void await(BooleanSupplier condition, String what) {
        new FluentWait<>(condition).withTimeout(Duration.ofSeconds(10)).pollingEvery(Duration.ofMillis(50))
                .withMessage("waiting for " + what).until(BooleanSupplier::getAsBoolean);
    }

    /** As {@link #await(BooleanSupplier, String)} with a deadline of its own. */
    public static void await(BooleanSupplier condition, String what, Duration deadline) {
        new FluentWait<>(condition).withTimeout(deadline).pollingEvery(Duration.ofMillis(100))
                .withMessage("waiting for " + what).until(BooleanSupplier::getAsBoolean);
    }

    @Override
    public void close() {
        driver.quit();
    }

    private static Path executable(String variable, String... names) {
        Optional<Path> given = Optional.ofNullable(System.getenv(variable)).filter(s -> !s.isBlank()).map(Path::of);
        if (given.isPresent()) {
            if (Files.isExecutable(given.get())) return given.get();
            throw new AssertionError(variable + "=" + given.get() + " is not an executable file");
        }
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.of(names).flatMap(n -> Stream.of(path.split(File.pathSeparator)).filter(d -> !d.isEmpty())
                        .map(d -> Path.of(d, n))).filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new AssertionError("the browser tests need headless Chromium and its driver: "
                        + String.join("/", names) + " is not on the PATH (apt-get install chromium chromium-driver;"
                        + " CI's .ci/run installs them), or set " + variable));
    }
}
