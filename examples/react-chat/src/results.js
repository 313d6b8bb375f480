// What the scripted tools return: ToolResults, as a tool wrapped by
// toolresult/ai (withToolResults) streams them to the UI. A diff for the
// edit, matches with file headers and line numbers for the search.
export const SCRIPT_RESULTS = {
  grep: {
    input: {
      tool_name: 'grep',
      parameters: {
        pattern: 'TODO',
        path: 'src',
      },
      tool_call_id: 'call_grep',
    },
    status: 'success',
    tool_metadata: {
      tool_type: 'grep',
      pattern: 'TODO',
      path: 'src',
      include: '*.rs',
      results: [
        {
          file_path: 'src/a.rs',
          language: 'rust',
          matches: [
            {
              line_number: 12,
              content: '    // TODO: handle errors',
              match_start: 7,
              match_end: 11,
              context: [
                {
                  line_number: 11,
                  content: 'fn run() {',
                },
                {
                  line_number: 13,
                  content: '    run_inner()',
                },
              ],
            },
          ],
        },
        {
          file_path: 'src/ü.rs',
          matches: [
            {
              line_number: 1,
              content: '/* 🎉 TODO */',
              match_start: 6,
              match_end: 10,
            },
          ],
        },
      ],
      truncated: true,
      truncated_reason: 'max_matches',
    },
    metadata: {
      execution_id: '0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f',
      started_at: '2026-11-22T10:00:00Z',
      completed_at: '2026-11-22T10:00:01Z',
      duration_ms: 1000,
      output_truncated: false,
    },
    schema_version: '1.1.0',
  },
  edit: {
    input: {
      tool_name: 'edit_file',
      parameters: {
        path: 'src/main.rs',
        old_string: '    println!("hi");',
        new_string: '    let name = "world";\n    println!("hi {name}");',
      },
      tool_call_id: 'call_edit',
    },
    status: 'success',
    tool_metadata: {
      tool_type: 'file_edit',
      file_path: 'src/main.rs',
      start_line: 3,
      end_line: 6,
      old_content: '    println!("hi");',
      new_content: '    let name = "world";\n    println!("hi {name}");',
      diff_hunks: [
        {
          old_start: 3,
          old_count: 3,
          new_start: 3,
          new_count: 4,
          lines: [
            {
              type: 'context',
              content: 'fn main() {',
              old_line: 3,
              new_line: 3,
            },
            {
              type: 'removed',
              content: '    println!("hi");',
              old_line: 4,
            },
            {
              type: 'added',
              content: '    let name = "world";',
              new_line: 4,
            },
            {
              type: 'added',
              content: '    println!("hi {name}");',
              new_line: 5,
            },
            {
              type: 'context',
              content: '}',
              old_line: 5,
              new_line: 6,
            },
          ],
        },
      ],
      language: 'rust',
    },
    metadata: {
      execution_id: '0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f',
      started_at: '2026-11-22T10:00:00Z',
      completed_at: '2026-11-22T10:00:01Z',
      duration_ms: 1000,
      output_truncated: false,
    },
    schema_version: '1.1.0',
  },
};
