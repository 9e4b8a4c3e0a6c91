package dev.toolcoach.chat.jinja;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a template into text, {@code {{ output }}} and {@code {% statement %}} pieces, applying whitespace
 * control as Transformers configures jinja2: {@code trim_blocks} (the newline after a block or comment tag goes),
 * {@code lstrip_blocks} (spaces before a block or comment tag at the start of a line go), and the tags'
 * own {@code -} (strip all whitespace on that side) and {@code +} (keep it) markers.
 */
final class Lexer {
    enum Kind { TEXT, OUTPUT, STATEMENT }

    /** A piece of the template: text, or a tag's expression tokens (ending with an END token). */
    record Piece(Kind kind, String text, List<Tok> tokens, int line) {
    }

    enum TokType { NAME, STRING, INT, FLOAT, OP, END }

    record Tok(TokType type, String value, int line) {
        boolean is(String op) {
            return (type == TokType.OP || type == TokType.NAME) && value.equals(op);
        }
    }

    private final String src;
    private int pos;
    private final List<Piece> pieces = new ArrayList<>();

    private Lexer(String src) {
        this.src = src;
    }

    static List<Piece> lex(String source) {
        // as jinja2 reads a template: newlines normalized to \n, and one trailing newline dropped (keep_trailing_newline=False)
        String normalized = source.replace("\r\n", "\n").replace('\r', '\n');
        if (normalized.endsWith("\n")) {
            normalized = normalized.substring(0, normalized.length() - 1);
        }
        Lexer lexer = new Lexer(normalized);
        lexer.run();
        return lexer.pieces;
    }

    private int line(int at) {
        int n = 1;
        for (int i = 0; i < at && i < src.length(); i++) {
            if (src.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    private void run() {
        boolean stripLeading = false;
        boolean trimNewline = false;
        boolean lineStarting = true;
        while (pos <= src.length()) {
            int start = nextTag(pos);
            String text = src.substring(pos, start < 0 ? src.length() : start);
            if (stripLeading) {
                text = text.stripLeading();
            } else if (trimNewline) {
                text = text.startsWith("\r\n") ? text.substring(2) : text.startsWith("\n") ? text.substring(1) : text;
            }
            if (start < 0) {
                addText(text);
                return;
            }
            char kind = src.charAt(start + 1);
            int p = start + 2;
            char marker = p < src.length() ? src.charAt(p) : ' ';
            if (marker == '-') {
                text = text.stripTrailing();
            } else if (kind != '{' && marker != '+') {
                int lineStart = text.lastIndexOf('\n') + 1;
                if ((lineStart > 0 || lineStarting) && text.substring(lineStart).isBlank()) {
                    text = text.substring(0, lineStart);
                }
            }
            addText(text);
            if (marker == '-' || marker == '+') {
                p++;
            }
            int line = line(start);
            boolean minusRight;
            boolean plusRight = false;
            int end;
            if (kind == '#') {
                int close = src.indexOf("#}", p);
                if (close < 0) {
                    throw new TemplateError("line " + line + ": comment not closed");
                }
                minusRight = close > p && src.charAt(close - 1) == '-';
                plusRight = close > p && src.charAt(close - 1) == '+';
                end = close + 2;
            } else {
                List<Tok> tokens = new ArrayList<>();
                end = tokenize(p, kind == '{' ? "}}" : "%}", tokens, line);
                char before = src.charAt(end - 3);
                minusRight = before == '-' && tokens.size() > 0 && tokens.get(tokens.size() - 1).value().equals("-");
                if (minusRight) {
                    tokens.remove(tokens.size() - 1);
                }
                plusRight = before == '+' && tokens.size() > 0 && tokens.get(tokens.size() - 1).value().equals("+");
                if (plusRight) {
                    tokens.remove(tokens.size() - 1);
                }
                tokens.add(new Tok(TokType.END, "end of tag", line));
                if (kind == '%' && tokens.size() == 2 && tokens.get(0).is("raw")) {
                    RawEnd rawEnd = raw(end, line, minusRight);
                    end = rawEnd.end();
                    minusRight = rawEnd.stripAfter();
                } else {
                    pieces.add(new Piece(kind == '{' ? Kind.OUTPUT : Kind.STATEMENT, null, tokens, line));
                }
            }
            pos = end;
            stripLeading = minusRight;
            trimNewline = kind != '{' && !minusRight && !plusRight;
            lineStarting = minusRight ? endsWithNewline(src.substring(end, end + leadingWhitespace(end)))
                    : trimNewline && (src.startsWith("\n", end) || src.startsWith("\r\n", end));
        }
    }

    /** Where an endraw tag ends, and whether it strips the whitespace after it. */
    private record RawEnd(int end, boolean stripAfter) {
    }

    /** {@code {% raw %}...{% endraw %}}: the text between, verbatim. */
    private RawEnd raw(int from, int line, boolean stripBody) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{%([-+]?)\\s*endraw\\s*([-+]?)%}").matcher(src);
        if (!m.find(from)) {
            throw new TemplateError("line " + line + ": raw block not closed");
        }
        String body = src.substring(from, m.start());
        if (stripBody) {
            body = body.stripLeading();
        }
        if (m.group(1).equals("-")) {
            body = body.stripTrailing();
        }
        addText(body);
        return new RawEnd(m.end(), m.group(2).equals("-"));
    }

    private int leadingWhitespace(int from) {
        int i = from;
        while (i < src.length() && Character.isWhitespace(src.charAt(i))) {
            i++;
        }
        return i - from;
    }

    private static boolean endsWithNewline(String s) {
        return s.endsWith("\n");
    }

    private void addText(String text) {
        if (!text.isEmpty()) {
            pieces.add(new Piece(Kind.TEXT, text, List.of(), 0));
        }
    }

    private int nextTag(int from) {
        int i = from;
        while (true) {
            i = src.indexOf('{', i);
            if (i < 0 || i + 1 >= src.length()) {
                return -1;
            }
            char c = src.charAt(i + 1);
            if (c == '{' || c == '%' || c == '#') {
                return i;
            }
            i++;
        }
    }

    private static final List<String> OPS = List.of("**", "//", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~",
            "<", ">", "=", "(", ")", "[", "]", "{", "}", ",", ".", ":", "|");

    /** Reads expression tokens from {@code p} up to the closing delimiter at bracket depth 0; returns its end. */
    private int tokenize(int p, String close, List<Tok> out, int line) {
        int depth = 0;
        while (true) {
            while (p < src.length() && Character.isWhitespace(src.charAt(p))) {
                p++;
            }
            if (p >= src.length()) {
                throw new TemplateError("line " + line + ": tag not closed (missing '" + close + "')");
            }
            if (depth == 0 && src.startsWith(close, p)) {
                return p + 2;
            }
            char c = src.charAt(p);
            if (c == '"' || c == '\'') {
                StringBuilder sb = new StringBuilder();
                int i = p + 1;
                while (true) {
                    if (i >= src.length()) {
                        throw new TemplateError("line " + line + ": string literal not closed");
                    }
                    char ch = src.charAt(i);
                    if (ch == c) {
                        break;
                    }
                    if (ch == '\\' && i + 1 < src.length()) {
                        i++;
                        char e = src.charAt(i);
                        switch (e) {
                            case 'n' -> sb.append('\n');
                            case 't' -> sb.append('\t');
                            case 'r' -> sb.append('\r');
                            case 'b' -> sb.append('\b');
                            case 'f' -> sb.append('\f');
                            case '0' -> sb.append('\0');
                            case '\\', '\'', '"' -> sb.append(e);
                            case '\n' -> { }
                            case 'u', 'x' -> {
                                int len = e == 'u' ? 4 : 2;
                                sb.append((char) Integer.parseInt(src.substring(i + 1, i + 1 + len), 16));
                                i += len;
                            }
                            default -> sb.append('\\').append(e);
                        }
                    } else {
                        sb.append(ch);
                    }
                    i++;
                }
                out.add(new Tok(TokType.STRING, sb.toString(), line));
                p = i + 1;
            } else if (Character.isDigit(c)) {
                int i = p;
                while (i < src.length() && (Character.isDigit(src.charAt(i)) || src.charAt(i) == '_')) {
                    i++;
                }
                boolean isFloat = false;
                if (i + 1 < src.length() && src.charAt(i) == '.' && Character.isDigit(src.charAt(i + 1))) {
                    isFloat = true;
                    i++;
                    while (i < src.length() && Character.isDigit(src.charAt(i))) {
                        i++;
                    }
                }
                if (i < src.length() && (src.charAt(i) == 'e' || src.charAt(i) == 'E')) {
                    int j = i + 1;
                    if (j < src.length() && (src.charAt(j) == '+' || src.charAt(j) == '-')) {
                        j++;
                    }
                    if (j < src.length() && Character.isDigit(src.charAt(j))) {
                        isFloat = true;
                        i = j;
                        while (i < src.length() && Character.isDigit(src.charAt(i))) {
                            i++;
                        }
                    }
                }
                out.add(new Tok(isFloat ? TokType.FLOAT : TokType.INT, src.substring(p, i).replace("_", ""), line));
                p = i;
            } else if (Character.isLetter(c) || c == '_') {
                int i = p;
                while (i < src.length() && (Character.isLetterOrDigit(src.charAt(i)) || src.charAt(i) == '_')) {
                    i++;
                }
                out.add(new Tok(TokType.NAME, src.substring(p, i), line));
                p = i;
            } else {
                String op = null;
                for (String o : OPS) {
                    if (src.startsWith(o, p)) {
                        op = o;
                        break;
                    }
                }
                if (op == null) {
                    throw new TemplateError("line " + line + ": unexpected character '" + c + "'");
                }
                if (op.equals("(") || op.equals("[") || op.equals("{")) {
                    depth++;
                } else if (op.equals(")") || op.equals("]") || op.equals("}")) {
                    depth--;
                }
                out.add(new Tok(TokType.OP, op, line));
                p += op.length();
            }
        }
    }
}
