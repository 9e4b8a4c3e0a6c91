package dev.toolcoach.chat.jinja;

import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

/** Python's {@code datetime.strftime} in the C locale, for Transformers' {@code strftime_now} template global. */
final class Strftime {
    private Strftime() {
    }

    static String format(String format, ZonedDateTime t) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 >= format.length()) {
                sb.append(c);
                continue;
            }
            char code = format.charAt(++i);
            boolean unpadded = code == '-' && i + 1 < format.length(); // glibc's %-d
            if (unpadded) {
                code = format.charAt(++i);
            }
            switch (code) {
                case 'a' -> sb.append(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'A' -> sb.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
                case 'b', 'h' -> sb.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'B' -> sb.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
                case 'd' -> sb.append(pad(t.getDayOfMonth(), 2, unpadded));
                case 'e' -> sb.append(String.format("%2d", t.getDayOfMonth()));
                case 'm' -> sb.append(pad(t.getMonthValue(), 2, unpadded));
                case 'y' -> sb.append(pad(t.getYear() % 100, 2, unpadded));
                case 'Y' -> sb.append(t.getYear());
                case 'H' -> sb.append(pad(t.getHour(), 2, unpadded));
                case 'I' -> sb.append(pad(t.getHour() % 12 == 0 ? 12 : t.getHour() % 12, 2, unpadded));
                case 'p' -> sb.append(t.getHour() < 12 ? "AM" : "PM");
                case 'M' -> sb.append(pad(t.getMinute(), 2, unpadded));
                case 'S' -> sb.append(pad(t.getSecond(), 2, unpadded));
                case 'f' -> sb.append(pad(t.getNano() / 1000, 6, false));
                case 'j' -> sb.append(pad(t.getDayOfYear(), 3, unpadded));
                case 'w' -> sb.append(t.getDayOfWeek().getValue() % 7);
                case 'u' -> sb.append(t.getDayOfWeek().getValue());
                case 'z' -> sb.append(t.getOffset().getId().equals("Z") ? "+0000" : t.getOffset().getId().replace(":", ""));
                case 'Z' -> sb.append(t.getZone().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'F' -> sb.append(format("%Y-%m-%d", t));
                case 'T' -> sb.append(format("%H:%M:%S", t));
                case 'D' -> sb.append(format("%m/%d/%y", t));
                case 'c' -> sb.append(format("%a %b %e %H:%M:%S %Y", t));
                case 'x' -> sb.append(format("%m/%d/%y", t));
                case 'X' -> sb.append(format("%H:%M:%S", t));
                case '%' -> sb.append('%');
                default -> throw new TemplateError("strftime_now: unsupported format code '%" + code + "'");
            }
        }
        return sb.toString();
    }

    private static String pad(int value, int width, boolean unpadded) {
        String s = Integer.toString(value);
        return unpadded ? s : "0".repeat(Math.max(0, width - s.length())) + s;
    }
}
