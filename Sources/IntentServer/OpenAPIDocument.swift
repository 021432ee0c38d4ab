/// The API described in OpenAPI 3.1, served at `/v1/openapi.json`. The server's tests check every
/// response they receive against the schema of its path, method and status.
public enum OpenAPIDocument {
    public static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "intents",
            "version": "1",
            "description": "App Intents declared in YAML, answered over HTTP. Every /v1 path but this document needs `Authorization: Bearer <token>` (intents users add NAME). Each user's data is their own."
          },
          "components": {
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } },
            "schemas": {
              "Error": {
                "type": "object", "required": ["error"], "additionalProperties": false,
                "properties": {
                  "error": {
                    "type": "object", "required": ["code", "message"], "additionalProperties": false,
                    "properties": { "code": { "type": "string" }, "message": { "type": "string" } }
                  }
                }
              },
              "Answer": {
                "type": "object", "required": ["status", "app", "intent", "dialog", "parameters", "conversation"],
                "additionalProperties": false,
                "properties": {
                  "conversation": { "type": "string", "description": "Send it with the next request to carry the conversation on." },
                  "status": { "enum": ["done", "needs_value", "needs_confirmation", "needs_disambiguation", "no_match", "error", "cancelled", "ready"] },
                  "app": { "type": ["string", "null"] },
                  "intent": { "type": ["string", "null"] },
                  "dialog": { "type": "string" },
                  "parameters": { "type": "object" },
                  "error": { "type": "object", "required": ["message"], "properties": { "message": { "type": "string" } } },
                  "asking": { "type": "string" },
                  "choices": { "type": "array", "items": { "type": "string" } },
                  "suggestions": { "type": "array", "items": { "type": "string" } },
                  "opens": { "type": "array", "items": { "type": "string" } },
                  "result": {},
                  "followUp": {
                    "type": "object", "required": ["replaced", "carriedOver"], "additionalProperties": false,
                    "properties": { "replaced": { "type": "string" }, "carriedOver": { "type": "array", "items": { "type": "string" } } }
                  }
                }
              },
              "AnswerOnly": {
                "type": "object", "required": ["status", "app", "intent", "dialog", "parameters"],
                "properties": { "status": { "type": "string" }, "dialog": { "type": "string" }, "parameters": { "type": "object" } }
              },
              "Shared": {
                "type": "object", "required": ["conversation", "answers"], "additionalProperties": false,
                "properties": { "conversation": { "type": "string" }, "answers": { "type": "array", "items": { "$ref": "#/components/schemas/AnswerOnly" } } }
              },
              "Dialog": {
                "type": "object", "required": ["dialog"], "additionalProperties": false,
                "properties": { "dialog": { "type": "string" } }
              },
              "Continuations": {
                "type": "object", "required": ["continuations"], "additionalProperties": false,
                "properties": {
                  "continuations": {
                    "type": "array",
                    "items": {
                      "type": "object", "required": ["number", "kind", "at", "line"],
                      "properties": {
                        "number": { "type": "integer", "minimum": 1 }, "kind": { "enum": ["question", "activity"] },
                        "at": { "type": "string" }, "line": { "type": "string" }, "intent": { "type": "string" },
                        "question": { "type": "string" }, "title": { "type": "string" }, "link": { "type": "string" }
                      }
                    }
                  }
                }
              },
              "SearchResult": {
                "type": "object", "required": ["query", "hits"], "additionalProperties": false,
                "properties": {
                  "query": { "type": "string" },
                  "hits": {
                    "type": "array",
                    "items": {
                      "type": "object", "required": ["kind", "app", "type", "title", "subtitle"],
                      "properties": {
                        "kind": { "enum": ["entity", "action", "activity"] }, "app": { "type": "string" },
                        "type": { "type": "string" }, "title": { "type": "string" }, "subtitle": { "type": "string" },
                        "glyph": { "type": "string" }, "id": { "type": "string" }, "link": { "type": "string" },
                        "intent": { "type": "string" }, "score": { "type": "object" }, "matches": { "type": "array" }
                      }
                    }
                  }
                }
              },
              "Suggestions": {
                "type": "object", "required": ["suggestions"], "additionalProperties": false,
                "properties": {
                  "suggestions": {
                    "type": "array",
                    "items": {
                      "type": "object", "required": ["intent", "title", "text", "parameters", "confidence"], "additionalProperties": false,
                      "properties": {
                        "intent": { "type": "string" }, "title": { "type": "string" }, "text": { "type": "string" },
                        "parameters": { "type": "object" }, "confidence": { "type": "number" }
                      }
                    }
                  }
                }
              },
              "Widgets": {
                "type": "object", "required": ["widgets"], "additionalProperties": false,
                "properties": {
                  "widgets": {
                    "type": "array",
                    "items": {
                      "type": "object", "required": ["widget", "relevance", "items"], "additionalProperties": false,
                      "properties": {
                        "widget": { "type": "string" }, "title": { "type": "string" }, "value": { "type": "string" },
                        "label": { "type": "string" }, "empty": { "type": "string" }, "gauge": { "type": "number" },
                        "relevance": {
                          "type": "object", "required": ["score", "why"],
                          "properties": { "score": { "type": "integer" }, "why": { "type": "string" } }
                        },
                        "items": {
                          "type": "array",
                          "items": {
                            "type": "object", "required": ["id", "line"], "additionalProperties": false,
                            "properties": {
                              "id": { "type": "string" }, "line": { "type": "string" }, "detail": { "type": "string" },
                              "link": { "type": "string" }, "buttons": { "$ref": "#/components/schemas/WidgetButtons" }
                            }
                          }
                        },
                        "name": { "type": "string", "description": "The widget's own title." }, "app": { "type": "string" },
                        "families": { "type": "array", "items": { "type": "string" } },
                        "family": { "type": "string", "description": "The family an added widget was added in." },
                        "instance": { "type": "integer", "minimum": 1, "description": "The added widget's number (widget add)." },
                        "settings": {
                          "type": "array",
                          "items": {
                            "type": "object", "required": ["name", "value"], "additionalProperties": false,
                            "properties": { "name": { "type": "string" }, "value": { "type": "string" } }
                          }
                        },
                        "text": { "type": "string" },
                        "figures": {
                          "type": "array",
                          "items": {
                            "type": "object", "required": ["value"], "additionalProperties": false,
                            "properties": { "value": { "type": "string" }, "label": { "type": "string" } }
                          }
                        },
                        "link": { "type": "string" },
                        "buttons": { "$ref": "#/components/schemas/WidgetButtons" }
                      }
                    }
                  }
                }
              },
              "WidgetButtons": {
                "type": "array", "description": "Press one with POST /v1/widgets/press.",
                "items": {
                  "type": "object", "required": ["number", "title"], "additionalProperties": false,
                  "properties": { "number": { "type": "integer", "minimum": 1 }, "title": { "type": "string" } }
                }
              },
              "PressRequest": {
                "type": "object", "required": ["widget", "button"], "additionalProperties": false,
                "properties": {
                  "widget": { "type": "string", "description": "App.Name, as GET /v1/widgets gives it." },
                  "button": { "type": "integer", "minimum": 1 }, "instance": { "type": "integer", "minimum": 1 },
                  "conversation": { "type": "string" }, "dryRun": { "type": "boolean" }
                }
              },
              "TipRequest": {
                "type": "object", "additionalProperties": false, "properties": { "lang": { "type": "string" } }
              },
              "Tip": {
                "type": "object", "required": ["tip"], "additionalProperties": false,
                "properties": {
                  "tip": {
                    "type": ["object", "null"], "required": ["app", "intent", "phrase"], "additionalProperties": false,
                    "properties": { "app": { "type": "string" }, "intent": { "type": "string" }, "phrase": { "type": "string" } }
                  }
                }
              },
              "Controls": {
                "type": "object", "required": ["controls"], "additionalProperties": false,
                "properties": {
                  "controls": {
                    "type": "array",
                    "items": {
                      "type": "object", "required": ["control", "title", "kind"], "additionalProperties": false,
                      "properties": {
                        "control": { "type": "string" }, "title": { "type": "string" },
                        "kind": { "enum": ["toggle", "button"] }, "isOn": { "type": "boolean" }
                      }
                    }
                  }
                }
              },
              "Activities": {
                "type": "object", "required": ["activities"], "additionalProperties": false,
                "properties": {
                  "activities": {
                    "type": "array",
                    "items": {
                      "type": "object", "required": ["activity", "title", "status", "startedAt", "updatedAt"],
                      "properties": {
                        "activity": { "type": "string" }, "title": { "type": "string" },
                        "status": { "enum": ["active", "stale", "ended"] }, "startedAt": { "type": "string" },
                        "updatedAt": { "type": "string" }, "progress": { "type": "number" }, "remaining": { "type": "integer" }
                      }
                    }
                  }
                }
              },
              "Health": {
                "type": "object", "required": ["status"], "additionalProperties": false,
                "properties": { "status": { "enum": ["ok"] } }
              },
              "SayRequest": {
                "type": "object", "required": ["text"], "additionalProperties": false,
                "properties": {
                  "text": { "type": "string", "maxLength": 2000, "description": "At most 2,000 UTF-8 bytes." },
                  "conversation": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$" },
                  "lang": { "type": "string" },
                  "context": { "type": "object", "additionalProperties": { "type": "string" } },
                  "dryRun": { "type": "boolean" }
                }
              },
              "OpenRequest": {
                "type": "object", "required": ["url"], "additionalProperties": false,
                "properties": { "url": { "type": "string" }, "conversation": { "type": "string" }, "dryRun": { "type": "boolean" } }
              },
              "ShareRequest": {
                "type": "object", "required": ["items"], "additionalProperties": false,
                "properties": {
                  "items": {
                    "type": "array", "minItems": 1,
                    "items": {
                      "type": "object", "additionalProperties": false,
                      "properties": { "text": { "type": "string" }, "url": { "type": "string" } }
                    }
                  },
                  "to": { "type": "string" }, "conversation": { "type": "string" }, "dryRun": { "type": "boolean" }
                }
              },
              "ControlRequest": {
                "type": "object", "additionalProperties": false,
                "properties": {
                  "action": { "enum": ["on", "off", "toggle", "press"] }, "conversation": { "type": "string" },
                  "dryRun": { "type": "boolean" }
                }
              },
              "ContinueRequest": {
                "type": "object", "additionalProperties": false,
                "properties": { "number": { "type": "integer", "minimum": 1 }, "conversation": { "type": "string" }, "dryRun": { "type": "boolean" } }
              },
              "UndoRequest": {
                "type": "object", "additionalProperties": false, "properties": { "lang": { "type": "string" } }
              }
            },
            "responses": {
              "Refused": { "description": "A refusal with its reason", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
              "Answer": { "description": "The answer, and the conversation to carry on", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Answer" } } } }
            }
          },
          "security": [{ "bearer": [] }],
          "paths": {
            "/healthz": { "get": { "security": [], "responses": { "200": { "description": "Up", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Health" } } } }, "default": { "$ref": "#/components/responses/Refused" } } } },
            "/metrics": { "get": { "security": [], "responses": { "200": { "description": "Prometheus text", "content": { "text/plain": { "schema": { "type": "string" } } } }, "default": { "$ref": "#/components/responses/Refused" } } } },
            "/v1/openapi.json": { "get": { "security": [], "responses": { "200": { "description": "This document", "content": { "application/json": { "schema": { "type": "object" } } } }, "default": { "$ref": "#/components/responses/Refused" } } } },
            "/v1/say": {
              "post": {
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SayRequest" } } } },
                "responses": { "200": { "$ref": "#/components/responses/Answer" }, "422": { "$ref": "#/components/responses/Answer" }, "500": { "$ref": "#/components/responses/Answer" }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/open": {
              "post": {
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/OpenRequest" } } } },
                "responses": { "200": { "$ref": "#/components/responses/Answer" }, "422": { "$ref": "#/components/responses/Answer" }, "500": { "$ref": "#/components/responses/Answer" }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/share": {
              "post": {
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ShareRequest" } } } },
                "responses": {
                  "200": { "description": "One answer per item", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Shared" } } } },
                  "default": { "$ref": "#/components/responses/Refused" }
                }
              }
            },
            "/v1/undo": {
              "post": {
                "requestBody": { "required": false, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/UndoRequest" } } } },
                "responses": { "200": { "description": "What was undone", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Dialog" } } } }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/continuations": {
              "get": { "responses": { "200": { "description": "Questions and activities to carry on, newest first", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Continuations" } } } }, "default": { "$ref": "#/components/responses/Refused" } } }
            },
            "/v1/continue": {
              "post": {
                "requestBody": { "required": false, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ContinueRequest" } } } },
                "responses": { "200": { "$ref": "#/components/responses/Answer" }, "422": { "$ref": "#/components/responses/Answer" }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/search": {
              "get": {
                "parameters": [
                  { "name": "q", "in": "query", "required": true, "schema": { "type": "string" } },
                  { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 100 } }
                ],
                "responses": { "200": { "description": "Hits, best first", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SearchResult" } } } }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/suggest": {
              "get": {
                "parameters": [{ "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 50 } }],
                "responses": { "200": { "description": "Suggestions from the user's donations", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Suggestions" } } } }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/widgets": {
              "get": {
                "parameters": [{ "name": "family", "in": "query", "schema": { "type": "string" } }],
                "responses": { "200": { "description": "The Smart Stack, most relevant first", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Widgets" } } } }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/controls": {
              "get": { "responses": { "200": { "description": "Controls and their state", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Controls" } } } }, "default": { "$ref": "#/components/responses/Refused" } } }
            },
            "/v1/controls/{name}": {
              "post": {
                "parameters": [{ "name": "name", "in": "path", "required": true, "schema": { "type": "string" } }],
                "requestBody": { "required": false, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ControlRequest" } } } },
                "responses": { "200": { "$ref": "#/components/responses/Answer" }, "422": { "$ref": "#/components/responses/Answer" }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/activities": {
              "get": { "responses": { "200": { "description": "Live activities now", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Activities" } } } }, "default": { "$ref": "#/components/responses/Refused" } } }
            },
            "/v1/widgets/press": {
              "post": {
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PressRequest" } } } },
                "responses": { "200": { "$ref": "#/components/responses/Answer" }, "422": { "$ref": "#/components/responses/Answer" }, "500": { "$ref": "#/components/responses/Answer" }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/tip": {
              "post": {
                "requestBody": { "required": false, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TipRequest" } } } },
                "responses": { "200": { "description": "The tip of the moment (shown once), or null", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Tip" } } } }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/v1/events": {
              "get": {
                "description": "Server-sent events: `event: state` with `{widgets, controls, activities}` (each as its own GET answers) at once and whenever one changes; a comment every 5 s keeps the connection open. At most 8 streams per user (429 too_many_streams) and 64 of all users (503 busy). Send the token in the header (fetch with a stream reader: EventSource cannot).",
                "responses": { "200": { "description": "The stream", "content": { "text/event-stream": { "schema": { "type": "string" } } } }, "default": { "$ref": "#/components/responses/Refused" } }
              }
            },
            "/": { "get": { "security": [], "description": "The web console (docs/console.md), in the language Accept-Language asks for.", "responses": { "200": { "description": "The page", "content": { "text/html": { "schema": { "type": "string" } } } } } } },
            "/console.js": { "get": { "security": [], "responses": { "200": { "description": "The console's script", "content": { "text/javascript": { "schema": { "type": "string" } } } } } } },
            "/console.css": { "get": { "security": [], "responses": { "200": { "description": "The console's style", "content": { "text/css": { "schema": { "type": "string" } } } } } } }
          }
        }
        """#
}
