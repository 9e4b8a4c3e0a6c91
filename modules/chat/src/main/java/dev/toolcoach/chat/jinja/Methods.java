package dev.toolcoach.chat.jinja;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Python methods templates call on values ({@code content.startswith(...)}, {@code d.items()}), and the
 * attributes of namespaces and loops. Only these exist: the sandbox offers nothing that could change a value.
 */
final class Methods {
    private Methods() {
    }

    static Object attribute(Object target, String name) {
        if (target instanceof String s) {
            PyCallable m = stringMethod(s, name);
            if (m != null) {
                return m;
            }
        } else if (target instanceof Map<?, ?> map) {
            switch (name) {
                case "items" -> {
                    return (PyCallable) (args, kwargs) -> {
                        List<Object> pairs = new ArrayList<>();
                        map.forEach((k, v) -> pairs.add(new Tuple(java.util.Arrays.asList(k, v))));
                        return pairs;
                    };
                }
                case "keys" -> {
                    return (PyCallable) (args, kwargs) -> new ArrayList<Object>(map.keySet());
                }
                case "values" -> {
                    return (PyCallable) (args, kwargs) -> new ArrayList<Object>(map.values());
                }
                case "get" -> {
                    return (PyCallable) (args, kwargs) -> {
                        arity("get", args, 1, 2);
                        return Py.containsKey(map, args.get(0)) ? Py.getKey(map, args.get(0)) : args.size() > 1 ? args.get(1) : null;
                    };
                }
                default -> {
                }
            }
        } else if (target instanceof List<?> list) {
            switch (name) {
                case "count" -> {
                    return (PyCallable) (args, kwargs) -> list.stream().filter(x -> Py.eq(x, args.get(0))).count();
                }
                case "index" -> {
                    return (PyCallable) (args, kwargs) -> {
                        for (int i = 0; i < list.size(); i++) {
                            if (Py.eq(list.get(i), args.get(0))) {
                                return (long) i;
                            }
                        }
                        throw new TemplateError(Py.repr(args.get(0)) + " is not in list");
                    };
                }
                case "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse" -> throw unsafe(name, target);
                default -> {
                }
            }
        } else if (target instanceof Namespace ns) {
            return ns.attributes.containsKey(name) ? ns.attributes.get(name) : new Undefined(missing(target, name));
        } else if (target instanceof LoopInfo loop) {
            return loop.attribute(name);
        }
        if (target instanceof Map && List.of("update", "pop", "popitem", "clear", "setdefault").contains(name)) {
            throw unsafe(name, target);
        }
        return new Undefined(missing(target, name));
    }

    /** jinja2's wording for a missing attribute or key. */
    static String missing(Object target, String name) {
        return "'" + Py.typeName(target) + " object' has no attribute '" + name + "'";
    }

    private static TemplateError unsafe(String name, Object target) {
        return new TemplateError("access to attribute '" + name + "' of '" + Py.typeName(target) + "' object is unsafe.");
    }

    private static void arity(String name, List<Object> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw new TemplateError(name + "() takes " + (min == max ? "" + min : min + " to " + max) + " arguments (" + args.size() + " given)");
        }
    }

    private static String str(Object v, String method) {
        if (!(v instanceof String s)) {
            throw new TemplateError(method + "() argument must be str, not " + Py.typeName(v));
        }
        return s;
    }

    private static PyCallable stringMethod(String s, String name) {
        return switch (name) {
            case "startswith", "endswith" -> (args, kwargs) -> {
                arity(name, args, 1, 1);
                List<Object> options = args.get(0) instanceof List<?> l ? new ArrayList<>(l) : List.of(args.get(0));
                for (Object o : options) {
                    String affix = str(o, name);
                    if (name.equals("startswith") ? s.startsWith(affix) : s.endsWith(affix)) {
                        return true;
                    }
                }
                return false;
            };
            case "strip", "lstrip", "rstrip" -> (args, kwargs) -> {
                arity(name, args, 0, 1);
                String chars = args.isEmpty() || args.get(0) == null ? null : str(args.get(0), name);
                return strip(s, chars, !name.equals("rstrip"), !name.equals("lstrip"));
            };
            case "split", "rsplit" -> (args, kwargs) -> {
                Object sep = args.size() > 0 ? args.get(0) : kwargs.get("sep");
                Object max = args.size() > 1 ? args.get(1) : kwargs.getOrDefault("maxsplit", -1L);
                return split(s, sep == null ? null : str(sep, name), ((Number) max).intValue(), name.equals("rsplit"));
            };
            case "splitlines" -> (args, kwargs) -> {
                List<Object> lines = new ArrayList<>(List.of(s.split("\r\n|\r|\n", -1)));
                if (!lines.isEmpty() && ((String) lines.get(lines.size() - 1)).isEmpty()) {
                    lines.remove(lines.size() - 1); // a final line break ends the last line, it starts none
                }
                return lines;
            };
            case "upper" -> (args, kwargs) -> s.toUpperCase(java.util.Locale.ROOT);
            case "lower" -> (args, kwargs) -> s.toLowerCase(java.util.Locale.ROOT);
            case "title" -> (args, kwargs) -> title(s);
            case "capitalize" -> (args, kwargs) -> s.isEmpty() ? s
                    : s.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + s.substring(1).toLowerCase(java.util.Locale.ROOT);
            case "replace" -> (args, kwargs) -> {
                arity(name, args, 2, 3);
                return replace(s, str(args.get(0), name), str(args.get(1), name), args.size() > 2 ? ((Number) args.get(2)).intValue() : -1);
            };
            case "find", "rfind", "index", "rindex" -> (args, kwargs) -> {
                arity(name, args, 1, 1);
                int at = name.startsWith("r") ? s.lastIndexOf(str(args.get(0), name)) : s.indexOf(str(args.get(0), name));
                if (at < 0 && name.contains("index")) {
                    throw new TemplateError("substring not found");
                }
                return (long) (at < 0 ? -1 : s.codePointCount(0, at));
            };
            case "count" -> (args, kwargs) -> {
                String sub = str(args.get(0), name);
                if (sub.isEmpty()) {
                    return Py.length(s) + 1;
                }
                long n = 0;
                for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length())) {
                    n++;
                }
                return n;
            };
            case "join" -> (args, kwargs) -> {
                arity(name, args, 1, 1);
                StringBuilder sb = new StringBuilder();
                List<Object> items = Py.iterate(args.get(0));
                for (int i = 0; i < items.size(); i++) {
                    sb.append(i > 0 ? s : "").append(str(items.get(i), name));
                }
                return sb.toString();
            };
            case "isdigit" -> (args, kwargs) -> !s.isEmpty() && s.chars().allMatch(Character::isDigit);
            case "isalpha" -> (args, kwargs) -> !s.isEmpty() && s.chars().allMatch(Character::isLetter);
            case "isalnum" -> (args, kwargs) -> !s.isEmpty() && s.chars().allMatch(Character::isLetterOrDigit);
            case "isspace" -> (args, kwargs) -> !s.isEmpty() && s.chars().allMatch(Character::isWhitespace);
            case "isupper" -> (args, kwargs) -> s.chars().anyMatch(Character::isLetter) && s.equals(s.toUpperCase(java.util.Locale.ROOT));
            case "islower" -> (args, kwargs) -> s.chars().anyMatch(Character::isLetter) && s.equals(s.toLowerCase(java.util.Locale.ROOT));
            default -> null;
        };
    }

    static String strip(String s, String chars, boolean left, boolean right) {
        int start = 0;
        int end = s.length();
        while (left && start < end && (chars == null ? Character.isWhitespace(s.charAt(start)) : chars.indexOf(s.charAt(start)) >= 0)) {
            start++;
        }
        while (right && end > start && (chars == null ? Character.isWhitespace(s.charAt(end - 1)) : chars.indexOf(s.charAt(end - 1)) >= 0)) {
            end--;
        }
        return s.substring(start, end);
    }

    private static List<Object> split(String s, String sep, int max, boolean fromRight) {
        List<Object> parts = new ArrayList<>();
        if (sep == null) {
            String[] words = s.strip().isEmpty() ? new String[0] : s.strip().split("\\s+");
            if (max < 0 || words.length <= max + 1) {
                parts.addAll(List.of(words));
                return parts;
            }
            // maxsplit with whitespace: the rest keeps its inner spacing
            String rest = fromRight ? strip(s, null, false, true) : strip(s, null, true, false);
            for (int i = 0; i < max; i++) {
                if (fromRight) {
                    int at = lastWhitespace(rest);
                    parts.add(0, rest.substring(at + 1));
                    rest = strip(rest.substring(0, at), null, false, true);
                } else {
                    int at = firstWhitespace(rest);
                    parts.add(rest.substring(0, at));
                    rest = strip(rest.substring(at), null, true, false);
                }
            }
            if (fromRight) {
                parts.add(0, rest);
            } else {
                parts.add(rest);
            }
            return parts;
        }
        if (sep.isEmpty()) {
            throw new TemplateError("empty separator");
        }
        if (!fromRight) {
            int from = 0;
            int at;
            while ((max < 0 || parts.size() < max) && (at = s.indexOf(sep, from)) >= 0) {
                parts.add(s.substring(from, at));
                from = at + sep.length();
            }
            parts.add(s.substring(from));
        } else {
            int to = s.length();
            int at;
            while ((max < 0 || parts.size() < max) && (at = s.lastIndexOf(sep, to - sep.length())) >= 0 && to - sep.length() >= 0) {
                parts.add(0, s.substring(at + sep.length(), to));
                to = at;
            }
            parts.add(0, s.substring(0, to));
        }
        return parts;
    }

    private static int firstWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return s.length();
    }

    private static int lastWhitespace(String s) {
        for (int i = s.length() - 1; i >= 0; i--) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String replace(String s, String old, String replacement, int count) {
        if (count < 0) {
            return s.replace(old, replacement);
        }
        StringBuilder sb = new StringBuilder();
        int from = 0;
        for (int n = 0; n < count; n++) {
            int at = s.indexOf(old, from);
            if (at < 0) {
                break;
            }
            sb.append(s, from, at).append(replacement);
            from = at + old.length();
        }
        return sb.append(s.substring(from)).toString();
    }

    static String title(String s) {
        StringBuilder sb = new StringBuilder();
        boolean previousCased = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            sb.append(previousCased ? Character.toLowerCase(c) : Character.toUpperCase(c));
            previousCased = Character.isLetter(c);
        }
        return sb.toString();
    }
}
