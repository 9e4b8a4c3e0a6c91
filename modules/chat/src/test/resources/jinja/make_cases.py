"""Renders small templates with Python's jinja2 configured as Transformers' apply_chat_template configures it,
writing cases.json: the independent reference JinjaTemplateTest checks the Java interpreter against.

Run: python3 make_cases.py > cases.json   (jinja2 3.1)
"""
import json
from datetime import datetime

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


class Generation(Extension):
    """Transformers' {% generation %} block (its AssistantTracker), rendering the body unchanged."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[Generation, loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
env.globals["strftime_now"] = lambda fmt: datetime(2024, 7, 26, 9, 5, 3).strftime(fmt)

VARS = {
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "  Hi there\n"},
        {"role": "assistant", "content": "<think>\nplan\n</think>\n\nHello", "tool_calls": [
            {"type": "function", "function": {"name": "f", "arguments": {"x": 1, "y": [1.5, None, True]}}}]},
        {"role": "tool", "name": "f", "content": "42"},
    ],
    "tools": [{"type": "function", "function": {"name": "f", "description": "Ünïcode \"quoted\"\n", "parameters": {}}}],
    "d": {"b": 2, "a": 1, "c": None},
    "n": 7, "f": 0.1, "s": "a,b,,c", "empty": [], "zero": 0, "nothing": None,
}

TEMPLATES = [
    # whitespace: trim_blocks, lstrip_blocks, - and + markers, comments
    "{% if true %}\n    yes\n{% endif %}\nend",
    "  {% if true %}x{% endif %}  \n  {{ 'v' }}  \n",
    "a  {%- if true -%}  b  {%- endif -%}  c",
    "a\n    {%+ if true %}b{% endif %}\nc",
    "{# comment #}\nx\n  {# indented comment #}\ny",
    "{% raw %}{{ not rendered }}{% endraw %}",
    "{% for m in messages %}\n  {{ m.role }}\n{% endfor %}\n",
    "{%- for m in messages %}\n    {{- m.role }}\n{%- endfor %}",
    # values printed as Python prints them
    "{{ true }} {{ false }} {{ none }} {{ nothing }} {{ 1 }} {{ 1.0 }} {{ f }} {{ 1e-5 }} {{ 1e16 }} {{ 2.5e3 }}",
    "{{ [1, 'a', none, true] }} {{ d }} {{ (1, 2) }} {{ 'it\\'s' }} {{ undefined_thing }}|",
    "{{ 7 / 2 }} {{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 0.1 + 0.2 }}",
    "{{ 'a' ~ 1 ~ none }} {{ 'a' + 'b' }} {{ [1] + [2] }} {{ 'ab' * 3 }} {{ -n }} {{ not n }}",
    # comparisons, logic, membership, conditional expressions
    "{{ 1 == 1.0 }} {{ 1 < 2 < 3 }} {{ 'a' < 'b' }} {{ 'x' in 'xyz' }} {{ 'b' in d }} {{ 3 not in [1, 2] }} {{ [1, 2] == [1, 2] }}",
    "{{ n and 'yes' }} {{ zero or 'fallback' }} {{ empty or 'none' }} {{ 'a' if n > 5 else 'b' }} {{ 'a' if zero }}|",
    "{{ not n is defined }} {{ messages[0].role == 'system' and not messages[1].tool_calls }}",
    # subscripts and slices
    "{{ messages[-1].content }} {{ messages[1:3] | length }} {{ (messages[::-1] | first).role }} {{ s[::2] }} {{ s[1:-1] }} {{ s[-2:] }} {{ [1,2,3,4,5][4:0:-2] }}",
    "{{ d['a'] }} {{ d.a }} {{ d.missing is defined }} {{ messages[9] is defined }} {{ d.items() | list }} {{ d.keys() | list }} {{ d.get('z', 5) }} {{ d.get('a') }}",
    # string methods
    "{{ messages[1].content.strip() }}|{{ messages[1].content.lstrip() }}|{{ messages[1].content.rstrip() }}|{{ 'xxhixx'.strip('x') }}",
    "{{ s.split(',') }} {{ '  a  b '.split() }} {{ s.split(',', 1) }} {{ s.rsplit(',', 1) }} {{ 'a\\nb\\n'.splitlines() }}",
    "{{ 'Hello'.startswith('He') }} {{ 'Hello'.endswith(('x', 'lo')) }} {{ 'hello world'.title() }} {{ 'hELLO'.capitalize() }} {{ 'abc'.upper() }} {{ 'ABC'.lower() }}",
    "{{ 'a-b-c'.replace('-', '+') }} {{ 'a-b-c'.replace('-', '+', 1) }} {{ 'abcabc'.find('c') }} {{ 'abcabc'.count('b') }} {{ ', '.join(['x', 'y']) }}",
    "{% set c = messages[2].content %}{{ c.split('</think>')[0].rstrip('\\n').split('<think>')[-1].lstrip('\\n') }}|{{ c.split('</think>')[-1].lstrip('\\n') }}",
    # loops
    "{% for m in messages %}{{ loop.index }}/{{ loop.length }}:{{ loop.first }},{{ loop.last }},{{ loop.revindex0 }} {% endfor %}",
    "{% for m in messages if m.role != 'system' %}{{ loop.index0 }}{{ m.role[0] }}{% endfor %}",
    "{% for x in empty %}x{% else %}empty{% endfor %}",
    "{% for i in range(10) %}{% if i == 2 %}{% continue %}{% endif %}{% if i == 5 %}{% break %}{% endif %}{{ i }}{% endfor %}",
    "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %} {% for k in d %}{{ k }}{% endfor %} {% for c in 'ab' %}[{{ c }}]{% endfor %}",
    "{% for i in range(3) %}{{ loop.cycle('a', 'b') }}{{ loop.previtem is defined }}{% endfor %} {{ range(1, 10, 3) | list }}",
    # scoping and namespaces
    "{% set x = 1 %}{% for i in range(3) %}{% set x = i %}{% endfor %}{{ x }}",
    "{% set ns = namespace(found=false, last=messages|length - 1) %}{% for m in messages %}{% if m.role == 'tool' %}{% set ns.found = true %}{% endif %}{% endfor %}{{ ns.found }} {{ ns.last }}",
    "{% if true %}{% set y = 'set in if' %}{% endif %}{{ y }}",
    "{% set a, b = 1, 2 %}{{ a }}{{ b }} {% set block %}multi {{ n }}{% endset %}{{ block }}",
    # macros, filter blocks, generation
    "{% macro greet(name, punct='!') %}Hi {{ name }}{{ punct }}{% endmacro %}{{ greet('A') }} {{ greet('B', '?') }} {{ greet(name='C', punct='.') }}",
    "{% macro render(m) %}{{ m.role | upper }}{% endmacro %}{% for m in messages %}{{ render(m) }} {% endfor %}",
    "{% filter upper %}shout {{ n }}{% endfilter %}",
    "{% generation %}kept{% endgeneration %}",
    # filters
    "{{ messages | length }} {{ s | length }} {{ messages[1].content | trim }} {{ '  x ' | trim }}| {{ 'a' | upper }} {{ 'Ab' | lower }} {{ 'ab cd' | title }}",
    "{{ undefined_thing | default('dflt') }} {{ '' | default('e', true) }} {{ nothing | default('n') }} {{ messages | first | tojson }} {{ [1, 2] | last }}",
    "{{ [3, 1, 2] | sort }} {{ ['b', 'A', 'a'] | sort }} {{ [3, 1, 2] | sort(reverse=true) }} {{ messages | map(attribute='role') | join(', ') }} {{ [1, 2, 1] | unique | list }}",
    "{{ messages | selectattr('role', 'equalto', 'user') | list | length }} {{ messages | rejectattr('tool_calls') | map(attribute='role') | list }} {{ [0, 1, 2] | select | list }} {{ [1, 2, 3] | reject('odd') | list }}",
    "{{ '1' | int + 1 }} {{ 'x' | int }} {{ '2.5' | float }} {{ 3 | float }} {{ -3 | abs }} {{ 2.567 | round(2) }} {{ 2.5 | round }} {{ [1, 2, 3] | sum }} {{ [3, 1] | min }} {{ [3, 1] | max }}",
    "{{ 'a\\nb\\n\\nc' | indent(2) }}|{{ 'a\\nb' | indent(2, true) }}|{{ d | dictsort }} {{ [1, 2] | reverse | list }} {{ 'abc' | reverse }} {{ 'one two three' | wordcount }}",
    "{{ d | items | list }} {{ 1 | string + '!' }} {{ ['a', 'b'] | join }} {{ [[1, 2], [3]] | map('length') | list }} {{ '<&>' | e }} {{ d | length }}",
    # tests
    "{{ n is number }} {{ n is integer }} {{ f is float }} {{ true is boolean }} {{ 's' is string }} {{ d is mapping }} {{ empty is iterable }} {{ 's' is iterable }} {{ d is sequence }} {{ nothing is none }}",
    "{{ n is odd }} {{ n is even }} {{ n is divisibleby 7 }} {{ 'ab' is lower }} {{ 'AB' is upper }} {{ n is eq 7 }} {{ n is gt 3 }} {{ 2 is in [1, 2] }} {{ false is false }} {{ 0 is false }} {{ true is true }} {{ range is callable }}",
    "{{ undefined_thing is undefined }} {{ undefined_thing is defined }} {{ d is not mapping }} {{ n is not string }} {{ nothing is sameas none }}",
    # tojson as Transformers overrides it
    "{{ tools | tojson }}",
    "{{ tools | tojson(indent=2) }}",
    "{{ {'a': [1, {'b': []}], 'e': {}} | tojson(indent=4) }}",
    "{{ [1e-5, 1e16, 1e15, 0.1, 100.0, -0.0, 123456789012345678, 3.14159265358979, 1.5e300] | tojson }}",
    "{{ d | tojson(sort_keys=true) }} {{ d | tojson(separators=(',', ':')) }} {{ 'é\\u0001\\t' | tojson }} {{ 'é' | tojson(ensure_ascii=true) }}",
    "{{ messages[2].tool_calls[0].function.arguments | tojson }}",
    # Transformers' globals
    "{{ strftime_now('%d %b %Y') }} {{ strftime_now('%Y-%m-%d %H:%M:%S %A %B %j %I %p') }} {{ strftime_now is defined }}",
    # more of what real templates write
    "{{ \"a\" 'b' }} {{ {'k': [1, 2]}['k'][1] }} {{ messages[0]['content'] | trim + '!' }} {{ messages | length > 3 }} {{ (1 if zero else 2) if n else 3 }}",
    "{%- for m in messages -%}{{ loop.nextitem.role if loop.nextitem is defined else 'end' }},{%- endfor %}",
    "{%- if messages[0].role == 'system' %}\n    {%- set sys = messages[0].content %}\n    {%- set rest = messages[1:] %}\n{%- endif %}\n{{- sys }}:{{ rest | length }}\n",
    "{% set tool_call = messages[2].tool_calls[0] %}{% if tool_call.function is defined %}{% set tool_call = tool_call.function %}{% endif %}{{ tool_call.name }}({{ tool_call.arguments | tojson }})",
    "{{ messages[3].content is string }} {{ messages[2].tool_calls is iterable }} {{ messages[2].tool_calls | length == 1 }} {{ tools[0].function.parameters is mapping }}",
    # errors
    "{{ raise_exception('Bad conversation: ' ~ messages[0].role) }}",
    "{{ undefined_thing.attr }}",
    "{{ 'a' + 1 }}",
    "{{ n | no_such_filter }}",
    "{% for x in range(3) %}{{ x }}",
    "{{ messages.append(1) }}",
]

cases = []
for source in TEMPLATES:
    case = {"template": source}
    try:
        case["expected"] = env.from_string(source).render(**VARS)
    except Exception as e:  # the reference's error, to check ours fails too
        case["error"] = type(e).__name__ + ": " + str(e)
    cases.append(case)
print(json.dumps({"variables": VARS, "cases": cases}, ensure_ascii=False, indent=1))
