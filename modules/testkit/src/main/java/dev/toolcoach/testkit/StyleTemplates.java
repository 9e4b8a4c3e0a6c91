package dev.toolcoach.testkit;

/**
 * Small chat templates in the layouts of real model families, for tests of what the agent does with a template's
 * behaviour (the real templates themselves are in ../shared/data/chat_templates).
 */
public final class StyleTemplates {

    /**
     * Qwen2.5's layout (tools in the system turn, calls as {@code <tool_call>} blocks, results as a user turn of
     * {@code <tool_response>} blocks) that, like Qwen3-style reasoning templates, keeps an assistant turn's
     * thinking only while it is the last message: once results follow, the reply is re-rendered without it (here
     * the text beside the calls is only the thinking, so it is dropped whole; kept to what jinja2 and Jinjava agree on).
     */
    public static final String QWEN_DROPPING_EARLIER_THINKING = """
            {%- if tools %}{{- '<|im_start|>system\\n' + messages[0].content + '\\n\\n# Tools\\n<tools>' }}\
            {%- for tool in tools %}{{- '\\n' }}{{- tool | tojson }}{%- endfor %}{{- '\\n</tools><|im_end|>\\n' }}\
            {%- endif %}
            {%- for message in messages %}
            {%- if message.role == 'user' %}{{- '<|im_start|>user\\n' + message.content + '<|im_end|>\\n' }}
            {%- elif message.role == 'assistant' %}
            {%- set content = message.content %}
            {%- if not loop.last and '</think>' in content %}{%- set content = '' %}{%- endif %}
            {{- '<|im_start|>assistant' }}{%- if content %}{{- '\\n' + content }}{%- endif %}
            {%- for call in message.tool_calls %}{{- '\\n<tool_call>\\n{"name": "' + call.function.name + '", "arguments": ' }}\
            {{- call.function.arguments | tojson }}{{- '}\\n</tool_call>' }}{%- endfor %}{{- '<|im_end|>\\n' }}
            {%- elif message.role == 'tool' %}{{- '<|im_start|>user\\n<tool_response>\\n' + message.content + '\\n</tool_response><|im_end|>\\n' }}
            {%- endif %}
            {%- endfor %}
            {%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}""";

    /** Llama 3.2's layout: tools in the system turn, a call as a bare {"name", "parameters"} object, results under ipython. */
    public static final String LLAMA3 = """
            {{- bos_token }}
            {%- if messages[0].role == 'system' %}{%- set system_message = messages[0].content %}{%- set messages = messages[1:] %}            {%- else %}{%- set system_message = '' %}{%- endif %}
            {{- '<|start_header_id|>system<|end_header_id|>\n\n' }}{%- if tools %}{{- 'Environment: ipython\n\n' }}            {%- for t in tools %}{{- t | tojson }}{{- '\n\n' }}{%- endfor %}{%- endif %}{{- system_message + '<|eot_id|>' }}
            {%- for message in messages %}
            {%- if message.role == 'assistant' and message.tool_calls %}{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}            {%- for call in message.tool_calls %}{{- '{"name": "' + call.function.name + '", "parameters": ' }}            {{- call.function.arguments | tojson }}{{- '}' }}{%- endfor %}{{- '<|eot_id|>' }}
            {%- elif message.role == 'tool' or message.role == 'ipython' %}            {{- '<|start_header_id|>ipython<|end_header_id|>\n\n' + message.content + '<|eot_id|>' }}
            {%- else %}{{- '<|start_header_id|>' + message.role + '<|end_header_id|>\n\n' + message.content | trim + '<|eot_id|>' }}
            {%- endif %}
            {%- endfor %}
            {%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{%- endif %}""";
    private StyleTemplates() {
    }
}
