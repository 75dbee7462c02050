package demo

// Tool input and output schemas, written by hand so that property order and
// the JSON Schema constructs on the wire are exactly these.

const schemaEcho = `{
  "type": "object",
  "properties": {
    "text": {
      "type": "string",
      "title": "Text",
      "description": "Text to send back. It may span several lines; line breaks are kept.",
      "maxLength": 10000,
      "default": "Hello from mcpscope!\nThis is a second line."
    },
    "uppercase": {
      "type": "boolean",
      "title": "Upper case",
      "description": "Shout the text back.",
      "default": false
    }
  },
  "required": ["text"],
  "additionalProperties": false
}`

const schemaAdd = `{
  "type": "object",
  "properties": {
    "a": {
      "type": "number",
      "title": "First addend",
      "minimum": -1000,
      "maximum": 1000
    },
    "b": {
      "type": "number",
      "title": "Second addend",
      "minimum": -1000,
      "maximum": 1000
    },
    "integer": {
      "type": "boolean",
      "title": "Integer result",
      "description": "Round the sum to the nearest integer.",
      "default": false
    }
  },
  "required": ["a", "b"],
  "additionalProperties": false
}`

const schemaCreateTicket = `{
  "type": "object",
  "title": "New ticket",
  "properties": {
    "title": {
      "type": "string",
      "title": "Title",
      "minLength": 3,
      "maxLength": 80
    },
    "description": {
      "type": "string",
      "title": "Description",
      "description": "Markdown; may span several lines."
    },
    "kind": {
      "type": "string",
      "title": "Kind",
      "enum": ["bug", "feature", "chore"],
      "default": "bug"
    },
    "priority": {
      "type": "string",
      "title": "Priority",
      "oneOf": [
        {"const": "p0", "title": "P0 – drop everything"},
        {"const": "p1", "title": "P1 – urgent"},
        {"const": "p2", "title": "P2 – normal"},
        {"const": "p3", "title": "P3 – some day"}
      ],
      "default": "p2"
    },
    "reporter": {
      "$ref": "#/$defs/person",
      "title": "Reporter"
    },
    "assignee": {
      "type": ["string", "null"],
      "title": "Assignee",
      "description": "Email address of the assignee, or null to leave it unassigned.",
      "format": "email",
      "default": null
    },
    "due": {
      "type": "string",
      "title": "Due date",
      "format": "date"
    },
    "fields": {
      "type": "object",
      "title": "Custom fields",
      "description": "Extra fields by name, each a string: a map (additionalProperties).",
      "additionalProperties": {"type": "string"}
    },
    "target": {
      "title": "Affected component",
      "oneOf": [
        {
          "type": "object",
          "title": "Repository",
          "properties": {
            "kind": {"const": "repository"},
            "url": {"type": "string", "format": "uri", "title": "Clone URL"},
            "branch": {"type": "string", "title": "Branch", "default": "main"}
          },
          "required": ["kind", "url"],
          "additionalProperties": false
        },
        {
          "type": "object",
          "title": "Running service",
          "properties": {
            "kind": {"const": "service"},
            "name": {"type": "string", "title": "Service name"},
            "environment": {"type": "string", "enum": ["dev", "staging", "prod"], "default": "prod"}
          },
          "required": ["kind", "name"],
          "additionalProperties": false
        }
      ]
    },
    "labels": {
      "type": "array",
      "title": "Labels",
      "items": {"type": "string", "enum": ["ui", "backend", "docs", "security", "performance"]},
      "uniqueItems": true,
      "default": []
    },
    "steps": {
      "type": "array",
      "title": "Steps to reproduce",
      "items": {
        "type": "object",
        "properties": {
          "action": {"type": "string", "title": "Action"},
          "expected": {"type": "string", "title": "Expected result"}
        },
        "required": ["action"],
        "additionalProperties": false
      },
      "maxItems": 10
    },
    "links": {
      "type": "array",
      "title": "Related links",
      "items": {"type": "string", "format": "uri"}
    }
  },
  "required": ["title", "reporter", "target"],
  "additionalProperties": false,
  "$defs": {
    "person": {
      "type": "object",
      "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 1},
        "email": {"type": "string", "title": "Email", "format": "email"}
      },
      "required": ["name", "email"],
      "additionalProperties": false
    }
  }
}`

const schemaGetWeather = `{
  "type": "object",
  "properties": {
    "city": {
      "type": "string",
      "title": "City",
      "description": "Any city name; the forecast is made up but stable.",
      "minLength": 1,
      "x-mcp-header": "City"
    },
    "units": {
      "type": "string",
      "title": "Units",
      "enum": ["celsius", "fahrenheit"],
      "default": "celsius"
    }
  },
  "required": ["city"],
  "additionalProperties": false
}`

const schemaGetWeatherOutput = `{
  "type": "object",
  "properties": {
    "city": {"type": "string"},
    "temperature": {"type": "number"},
    "units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    "conditions": {"type": "string", "enum": ["sunny", "cloudy", "rain", "snow", "fog"]},
    "humidity": {"type": "integer", "minimum": 0, "maximum": 100},
    "forecast": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "day": {"type": "string"},
          "high": {"type": "number"},
          "low": {"type": "number"}
        },
        "required": ["day", "high", "low"]
      }
    }
  },
  "required": ["city", "temperature", "units", "conditions", "humidity", "forecast"]
}`

const schemaImage = `{
  "type": "object",
  "properties": {
    "size": {
      "type": "integer",
      "title": "Edge length (pixels)",
      "enum": [16, 32, 64, 128],
      "default": 64
    }
  },
  "additionalProperties": false
}`

const schemaAudio = `{
  "type": "object",
  "properties": {
    "frequency": {
      "type": "integer",
      "title": "Frequency (Hz)",
      "minimum": 100,
      "maximum": 2000,
      "default": 440
    },
    "duration_ms": {
      "type": "integer",
      "title": "Duration (ms)",
      "minimum": 50,
      "maximum": 2000,
      "default": 400
    }
  },
  "additionalProperties": false
}`

const schemaSlow = `{
  "type": "object",
  "properties": {
    "seconds": {
      "type": "number",
      "title": "Duration (seconds)",
      "minimum": 0,
      "maximum": 120,
      "default": 5
    },
    "steps": {
      "type": "integer",
      "title": "Progress steps",
      "minimum": 1,
      "maximum": 100,
      "default": 5
    }
  },
  "additionalProperties": false
}`

const schemaFail = `{
  "type": "object",
  "properties": {
    "message": {
      "type": "string",
      "title": "Error message",
      "default": "The demo tool failed on purpose."
    }
  },
  "additionalProperties": false
}`

const schemaCrashRPC = `{
  "type": "object",
  "properties": {
    "code": {
      "type": "integer",
      "title": "JSON-RPC error code",
      "default": -32000
    },
    "message": {
      "type": "string",
      "title": "Error message",
      "default": "The demo server refused this call on purpose."
    }
  },
  "additionalProperties": false
}`

const schemaLog = `{
  "type": "object",
  "properties": {
    "message": {
      "type": "string",
      "title": "Message",
      "default": "Hello from the demo server"
    },
    "logger": {
      "type": "string",
      "title": "Logger name",
      "default": "demo"
    }
  },
  "additionalProperties": false
}`

const schemaAskUser = `{
  "type": "object",
  "properties": {
    "message": {
      "type": "string",
      "title": "Message shown with the form",
      "default": "Tell the demo server a little about yourself."
    }
  },
  "additionalProperties": false
}`

// schemaProfileForm is the requestedSchema of ask_user's elicitation: the
// flat, primitive-only subset of JSON Schema that elicitation allows.
const schemaProfileForm = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "Your name", "minLength": 1, "maxLength": 50},
    "email": {"type": "string", "title": "Email", "format": "email"},
    "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150},
    "rating": {"type": "number", "title": "How much do you like MCP? (0–10)", "minimum": 0, "maximum": 10, "default": 7.5},
    "newsletter": {"type": "boolean", "title": "Subscribe to the newsletter", "default": false},
    "color": {"type": "string", "title": "Favourite colour", "enum": ["red", "green", "blue"]},
    "editor": {
      "type": "string",
      "title": "Editor",
      "oneOf": [
        {"const": "vim", "title": "Vim"},
        {"const": "emacs", "title": "Emacs"},
        {"const": "vscode", "title": "Visual Studio Code"}
      ]
    }
  },
  "required": ["name"]
}`

const schemaSummarize = `{
  "type": "object",
  "properties": {
    "text": {
      "type": "string",
      "title": "Text to summarise",
      "default": "The Model Context Protocol lets applications provide context to language models in a standard way."
    },
    "max_tokens": {
      "type": "integer",
      "title": "Maximum tokens",
      "minimum": 1,
      "maximum": 4000,
      "default": 200
    }
  },
  "additionalProperties": false
}`

const schemaTouchResource = `{
  "type": "object",
  "properties": {
    "note": {
      "type": "string",
      "title": "Note",
      "description": "Text to write into demo://counter.",
      "default": "touched"
    }
  },
  "additionalProperties": false
}`

// schemaEmpty is the input schema of tools that take no arguments.
const schemaEmpty = `{"type": "object", "additionalProperties": false}`
