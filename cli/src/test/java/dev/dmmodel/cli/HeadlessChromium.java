package dev.dmmodel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's headless Chromium driven over the DevTools protocol (a WebSocket on the loopback interface, JDK's own
 * client): navigate, evaluate, screenshot, print, and collect script errors and console errors. For the report
 * page's browser test only; every wait is bounded.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final List<Map<String, Object>> events = new CopyOnWriteArrayList<>();
    private final StringBuilder output = new StringBuilder();

    /** The browser on the PATH: {@code chromium} (Debian), else {@code chromium-browser}, if any. */
    static Optional<Path> find() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    HeadlessChromium(Path browser, Path workDir) throws Exception {
        profile = Files.createTempDirectory(workDir, "chromium-profile");
        process = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "about:blank").redirectErrorStream(true).start();
        String browserUrl = waitForDevTools();
        // the page target that about:blank opened
        URI base = URI.create(browserUrl.replace("ws://", "http://"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        String list = http.send(HttpRequest.newBuilder(base.resolve("/json/list")).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        String pageUrl = null;
        for (Object o : MiniJson.array(MiniJson.parseAny(list))) {
            Map<String, Object> t = MiniJson.object(o);
            if ("page".equals(t.get("type"))) {
                pageUrl = (String) t.get("webSocketDebuggerUrl");
                break;
            }
        }
        if (pageUrl == null) {
            throw new IOException("chromium opened no page: " + list);
        }
        socket = http.newWebSocketBuilder().connectTimeout(TIMEOUT).buildAsync(URI.create(pageUrl), new Listener())
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        call("Runtime.enable", "{}");
        call("Log.enable", "{}");
        call("Page.enable", "{}");
    }

    /** What the browser printed. */
    String log() {
        synchronized (output) {
            return output.toString();
        }
    }

    private String waitForDevTools() throws Exception {
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        url.complete(m.group(1));
                    }
                }
            } catch (IOException e) {
                url.completeExceptionally(e);
            }
            url.completeExceptionally(new IOException("chromium exited: " + output));
        }, "chromium-output");
        reader.setDaemon(true);
        reader.start();
        return url.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Sends a command and waits for its result ({@code result} of the reply). */
    Map<String, Object> call(String method, String paramsJson) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<Map<String, Object>> reply = new CompletableFuture<>();
        pending.put(id, reply);
        try {
            socket.sendText("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}", true)
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(method + ": the browser closed the connection; it printed:\n" + log(), e);
        }
        Map<String, Object> r = reply.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (r.containsKey("error")) {
            throw new IOException(method + ": " + r.get("error"));
        }
        return MiniJson.object(r.getOrDefault("result", Map.of()));
    }

    /** Opens {@code url} and waits until the document has loaded (its load event, or readyState complete). */
    void navigate(String url) throws Exception {
        int seen = events.size();
        call("Page.navigate", "{\"url\":" + json(url) + "}");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Object state = null;
        while (System.nanoTime() < deadline) {
            for (int i = seen; i < events.size(); i++) {
                if ("Page.loadEventFired".equals(events.get(i).get("method"))) {
                    return;
                }
            }
            state = evaluate("location.href + ' ' + document.readyState");
            if ((url + " complete").equals(state)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IOException("no load of " + url + " (last: " + state + "); events: "
                + events.stream().map(e -> String.valueOf(e.get("method"))).toList());
    }

    /** The value of a JavaScript expression (a string, number or boolean), evaluated in the page. */
    Object evaluate(String expression) throws Exception {
        Map<String, Object> r = call("Runtime.evaluate", "{\"expression\":" + json(expression)
                + ",\"returnByValue\":true}");
        if (r.containsKey("exceptionDetails")) {
            throw new IOException("evaluating " + expression + ": " + r.get("exceptionDetails"));
        }
        return MiniJson.object(r.get("result")).get("value");
    }

    /** The page as a PNG of its full length, written to {@code file}. */
    void screenshot(Path file) throws Exception {
        screenshot(file, true);
    }

    /** The page as a PNG, of its full length or of the viewport alone, written to {@code file}. */
    void screenshot(Path file, boolean fullPage) throws Exception {
        Map<String, Object> r = call("Page.captureScreenshot", "{\"format\":\"png\",\"captureBeyondViewport\":"
                + fullPage + "}");
        Files.write(file, Base64.getDecoder().decode((String) r.get("data")));
    }

    /** The page printed to PDF, written to {@code file}. */
    void print(Path file) throws Exception {
        Map<String, Object> r = call("Page.printToPDF", "{\"printBackground\":false}");
        Files.write(file, Base64.getDecoder().decode((String) r.get("data")));
    }

    /** Sets the viewport (a phone: 390 wide). */
    void viewport(int width, int height, boolean mobile) throws Exception {
        call("Emulation.setDeviceMetricsOverride", "{\"width\":" + width + ",\"height\":" + height
                + ",\"deviceScaleFactor\":1,\"mobile\":" + mobile + "}");
    }

    /** Script exceptions and console or log errors the page has raised so far, one line each. */
    List<String> errors() {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> e : events) {
            Object method = e.get("method");
            Map<String, Object> p = MiniJson.object(e.getOrDefault("params", Map.of()));
            if ("Runtime.exceptionThrown".equals(method)) {
                out.add("exception: " + p.get("exceptionDetails"));
            } else if ("Runtime.consoleAPICalled".equals(method) && "error".equals(p.get("type"))) {
                out.add("console.error: " + p.get("args"));
            } else if ("Log.entryAdded".equals(method)) {
                Map<String, Object> entry = MiniJson.object(p.get("entry"));
                if ("error".equals(entry.get("level"))) {
                    out.add("log: " + entry.get("text") + " " + entry.getOrDefault("url", ""));
                }
            }
        }
        return out;
    }

    private static String json(String s) {
        return dev.dmmodel.internal.json.JsonWriter.string(s);
    }

    @Override
    public void close() throws Exception {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        } catch (RuntimeException e) {
            // the browser may be gone already
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try (var files = Files.walk(profile)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a profile file still held: left in the temporary directory
        }
    }

    /** Collects the frames of each message; replies complete their call, events are kept. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder buffer = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            buffer.append(data);
            if (last) {
                Map<String, Object> m;
                try {
                    m = MiniJson.object(MiniJson.parseAny(buffer.toString()));
                } catch (RuntimeException e) {
                    m = Map.of("method", "unreadable", "params", Map.of("text", buffer.toString()));
                }
                buffer.setLength(0);
                Object id = m.get("id");
                if (id instanceof Number n) {
                    CompletableFuture<Map<String, Object>> f = pending.remove(n.intValue());
                    if (f != null) {
                        f.complete(m);
                    }
                } else {
                    events.add(m);
                }
            }
            ws.request(1);
            return null;
        }
    }
}
