/// The OpenAPI 3.1 document served at `/mock/openapi.json`: the control API and Apple's endpoints,
/// with every status each operation answers. Generated once; keep it in step with the routes
/// (`OpenAPIDocumentTests` checks that every routed path is documented).
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array(text.utf8)

    static let text = #"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "siwa-mock",
  "version": "1.0.0",
  "description": "Apple's Sign in with Apple server endpoints (appleid.apple.com) and the mock's control API under /mock/."
 },
 "paths": {
  "/.well-known/openid-configuration": {
   "get": {
    "summary": "OpenID discovery document",
    "security": [],
    "responses": {
     "200": {
      "description": "Discovery document",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     }
    }
   }
  },
  "/auth/keys": {
   "get": {
    "summary": "JWKS of id_token signing keys",
    "security": [],
    "responses": {
     "200": {
      "description": "JWKS",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/JWKS"
        }
       }
      }
     }
    }
   }
  },
  "/auth/authorize": {
   "get": {
    "summary": "Authorization (web flow; headless with login_hint)",
    "security": [],
    "parameters": [
     {
      "name": "client_id",
      "in": "query",
      "required": true,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "redirect_uri",
      "in": "query",
      "required": true,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "response_type",
      "in": "query",
      "required": true,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "scope",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "response_mode",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "state",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "nonce",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "login_hint",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "cancel",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "User picker page, or form_post page delivering the result",
      "content": {
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "302": {
      "description": "Result delivered to redirect_uri (query or fragment)",
      "headers": {
       "Location": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "400": {
      "description": "Apple error (ErrorResponse)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AppleError"
        }
       }
      }
     }
    }
   },
   "post": {
    "summary": "Authorization submitted as a form",
    "security": [],
    "requestBody": {
     "required": true,
     "content": {
      "application/x-www-form-urlencoded": {
       "schema": {
        "type": "object",
        "properties": {
         "client_id": {
          "type": "string"
         },
         "redirect_uri": {
          "type": "string"
         },
         "response_type": {
          "type": "string"
         },
         "scope": {
          "type": "string"
         },
         "response_mode": {
          "type": "string"
         },
         "state": {
          "type": "string"
         },
         "nonce": {
          "type": "string"
         },
         "login_hint": {
          "type": "string"
         },
         "cancel": {
          "type": "string"
         }
        },
        "required": []
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "User picker page, or form_post page delivering the result",
      "content": {
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "302": {
      "description": "Result delivered to redirect_uri (query or fragment)",
      "headers": {
       "Location": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "400": {
      "description": "Apple error (ErrorResponse)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AppleError"
        }
       }
      }
     }
    }
   }
  },
  "/auth/token": {
   "post": {
    "summary": "Token endpoint (authorization_code, refresh_token, client_credentials)",
    "security": [],
    "requestBody": {
     "required": true,
     "content": {
      "application/x-www-form-urlencoded": {
       "schema": {
        "type": "object",
        "properties": {
         "grant_type": {
          "type": "string"
         },
         "client_id": {
          "type": "string"
         },
         "client_secret": {
          "type": "string"
         },
         "code": {
          "type": "string"
         },
         "redirect_uri": {
          "type": "string"
         },
         "refresh_token": {
          "type": "string"
         },
         "scope": {
          "type": "string"
         }
        },
        "required": []
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "TokenResponse",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/TokenResponse"
        }
       }
      }
     },
     "400": {
      "description": "Apple error (ErrorResponse)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AppleError"
        }
       }
      }
     }
    }
   }
  },
  "/auth/revoke": {
   "post": {
    "summary": "Revoke a refresh or access token",
    "security": [],
    "requestBody": {
     "required": true,
     "content": {
      "application/x-www-form-urlencoded": {
       "schema": {
        "type": "object",
        "properties": {
         "client_id": {
          "type": "string"
         },
         "client_secret": {
          "type": "string"
         },
         "token": {
          "type": "string"
         },
         "token_type_hint": {
          "type": "string"
         }
        },
        "required": []
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "Revoked (also for unknown tokens); empty body"
     },
     "400": {
      "description": "Apple error (ErrorResponse)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AppleError"
        }
       }
      }
     }
    }
   }
  },
  "/auth/usermigrationinfo": {
   "post": {
    "summary": "User migration between teams (transfer_sub)",
    "security": [
     {
      "migrationToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/x-www-form-urlencoded": {
       "schema": {
        "type": "object",
        "properties": {
         "client_id": {
          "type": "string"
         },
         "client_secret": {
          "type": "string"
         },
         "sub": {
          "type": "string"
         },
         "target": {
          "type": "string"
         },
         "transfer_sub": {
          "type": "string"
         }
        },
        "required": []
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "transfer_sub (sender) or the recipient team's identity",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/MigrationInfo"
        }
       }
      }
     },
     "400": {
      "description": "Apple error (ErrorResponse)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AppleError"
        }
       }
      }
     }
    }
   }
  },
  "/mock/health": {
   "get": {
    "summary": "Readiness",
    "responses": {
     "200": {
      "description": "Ready",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "status": {
           "type": "string"
          }
         },
         "additionalProperties": false,
         "required": [
          "status"
         ]
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   },
   "head": {
    "summary": "Readiness (no body)",
    "responses": {
     "200": {
      "description": "Ready"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/openapi.json": {
   "get": {
    "summary": "This document",
    "responses": {
     "200": {
      "description": "OpenAPI 3 document",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/reset": {
   "post": {
    "summary": "Back to the scenario's initial state",
    "responses": {
     "200": {
      "description": "Reset",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "status": {
           "type": "string"
          }
         },
         "additionalProperties": false,
         "required": [
          "status"
         ]
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/scenario": {
   "put": {
    "summary": "Replace the active scenario atomically",
    "responses": {
     "200": {
      "description": "Replaced",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "status": {
           "type": "string"
          },
          "name": {
           "type": "string"
          }
         },
         "additionalProperties": false,
         "required": [
          "status"
         ]
        }
       }
      }
     },
     "400": {
      "description": "Scenario errors; old scenario kept",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ScenarioErrors"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "501": {
      "$ref": "#/components/responses/NotImplemented"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "text/plain": {
       "schema": {
        "type": "string"
       }
      },
      "application/yaml": {
       "schema": {
        "type": "string"
       }
      },
      "application/json": {
       "schema": {
        "type": "object"
       }
      }
     }
    }
   }
  },
  "/mock/credentials": {
   "post": {
    "summary": "What ASAuthorizationAppleIDCredential gives a native app",
    "responses": {
     "200": {
      "description": "Native credential",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/NativeCredential"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "client_id": {
          "type": "string"
         },
         "user": {
          "type": "string"
         },
         "scopes": {
          "type": "array",
          "items": {
           "type": "string",
           "enum": [
            "full_name",
            "fullName",
            "name",
            "email"
           ]
          }
         },
         "nonce": {
          "type": "string"
         },
         "state": {
          "type": "string"
         }
        },
        "additionalProperties": false,
        "required": [
         "client_id",
         "user"
        ]
       }
      }
     }
    }
   }
  },
  "/mock/credential-state": {
   "get": {
    "summary": "getCredentialState(forUserID:) as a device answers",
    "responses": {
     "200": {
      "description": "State",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "state": {
           "type": "string",
           "enum": [
            "authorized",
            "revoked",
            "notFound",
            "transferred"
           ]
          },
          "raw_value": {
           "type": "integer",
           "minimum": 0,
           "maximum": 3
          }
         },
         "additionalProperties": false,
         "required": [
          "state",
          "raw_value"
         ]
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "parameters": [
     {
      "name": "user",
      "in": "query",
      "required": true,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "client_id",
      "in": "query",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ]
   }
  },
  "/mock/users": {
   "get": {
    "summary": "List users",
    "responses": {
     "200": {
      "description": "Users",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "users": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/User"
           }
          }
         },
         "additionalProperties": false,
         "required": [
          "users"
         ]
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   },
   "post": {
    "summary": "Add a user",
    "responses": {
     "201": {
      "description": "Added",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/User"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/NewUser"
       }
      }
     }
    }
   }
  },
  "/mock/users/{id}": {
   "parameters": [
    {
     "name": "id",
     "in": "path",
     "required": true,
     "description": "Scenario id, sub (any team) or email",
     "schema": {
      "type": "string"
     }
    }
   ],
   "get": {
    "summary": "Read a user",
    "responses": {
     "200": {
      "description": "User",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/User"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   },
   "patch": {
    "summary": "Change a user (nothing applied on error)",
    "responses": {
     "200": {
      "description": "User",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/User"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/UserChange"
       }
      }
     }
    }
   },
   "delete": {
    "summary": "The user deletes their Apple Account",
    "responses": {
     "200": {
      "description": "Deleted",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "deleted": {
           "type": "string"
          }
         },
         "additionalProperties": false,
         "required": [
          "deleted"
         ]
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/clock": {
   "get": {
    "summary": "Mock clock",
    "responses": {
     "200": {
      "description": "Clock",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Clock"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   },
   "post": {
    "summary": "Advance, set or freeze the clock (exactly one field)",
    "responses": {
     "200": {
      "description": "Clock",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Clock"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "409": {
      "$ref": "#/components/responses/Conflict"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "oneOf": [
         {
          "type": "object",
          "properties": {
           "advance": {
            "oneOf": [
             {
              "type": "string",
              "pattern": "^-?[0-9]{1,12}(ms|s|m|h|d)?$"
             },
             {
              "type": "integer"
             }
            ]
           }
          },
          "additionalProperties": false,
          "required": [
           "advance"
          ]
         },
         {
          "type": "object",
          "properties": {
           "set": {
            "type": "string",
            "format": "date-time"
           }
          },
          "additionalProperties": false,
          "required": [
           "set"
          ]
         },
         {
          "type": "object",
          "properties": {
           "freeze": {
            "type": "boolean"
           }
          },
          "additionalProperties": false,
          "required": [
           "freeze"
          ]
         }
        ]
       }
      }
     }
    }
   }
  },
  "/mock/keys": {
   "get": {
    "summary": "Signing keys",
    "responses": {
     "200": {
      "description": "Keys",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/KeyList"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/keys/rotate": {
   "post": {
    "summary": "Generate a new signing key; the old one stays published",
    "responses": {
     "200": {
      "description": "Keys",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/KeyList"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": false,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "kid": {
          "type": "string",
          "minLength": 1,
          "maxLength": 64
         }
        },
        "additionalProperties": false
       }
      }
     }
    }
   }
  },
  "/mock/keys/{kid}/publish": {
   "parameters": [
    {
     "name": "kid",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     }
    }
   ],
   "post": {
    "summary": "List the key at /auth/keys",
    "responses": {
     "200": {
      "description": "Keys",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/KeyList"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/keys/{kid}/retire": {
   "parameters": [
    {
     "name": "kid",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     }
    }
   ],
   "post": {
    "summary": "Remove the key from /auth/keys",
    "responses": {
     "200": {
      "description": "Keys",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/KeyList"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "409": {
      "$ref": "#/components/responses/Conflict"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/keys/{kid}/sign": {
   "parameters": [
    {
     "name": "kid",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     }
    }
   ],
   "post": {
    "summary": "Make the key sign id_tokens",
    "responses": {
     "200": {
      "description": "Keys",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/KeyList"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/requests": {
   "get": {
    "summary": "Journal of received requests",
    "responses": {
     "200": {
      "description": "Entries",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "requests": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/JournalEntry"
           }
          }
         },
         "additionalProperties": false,
         "required": [
          "requests"
         ]
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "parameters": [
     {
      "name": "path",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "client_id",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "user",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ]
   },
   "delete": {
    "summary": "Clear the journal",
    "responses": {
     "200": {
      "description": "Cleared",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "cleared": {
           "type": "integer"
          }
         },
         "additionalProperties": false,
         "required": [
          "cleared"
         ]
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/notifications": {
   "get": {
    "summary": "Server-to-server notifications and their delivery attempts",
    "responses": {
     "200": {
      "description": "Notifications",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "notifications": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Notification"
           }
          }
         },
         "additionalProperties": false,
         "required": [
          "notifications"
         ]
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   },
   "post": {
    "summary": "Send a server-to-server notification",
    "responses": {
     "202": {
      "description": "Queued",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "queued": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "id": {
              "type": "integer"
             },
             "type": {
              "type": "string"
             },
             "jti": {
              "type": "string"
             },
             "url": {
              "type": "string"
             },
             "aud": {
              "type": "string"
             }
            },
            "additionalProperties": false
           }
          }
         },
         "additionalProperties": false,
         "required": [
          "queued"
         ]
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "type": {
          "type": "string",
          "enum": [
           "email-disabled",
           "email-enabled",
           "consent-revoked",
           "account-delete",
           "account-deleted"
          ]
         },
         "user": {
          "type": "string"
         },
         "client_id": {
          "type": "string"
         }
        },
        "additionalProperties": false,
        "required": [
         "type",
         "user"
        ]
       }
      }
     }
    }
   }
  },
  "/mock/app-groups": {
   "get": {
    "summary": "App groups and their notification endpoints",
    "responses": {
     "200": {
      "description": "Groups",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AppGroupList"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   }
  },
  "/mock/app-groups/{id}": {
   "parameters": [
    {
     "name": "id",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     }
    }
   ],
   "patch": {
    "summary": "Set or remove the group's notification endpoint",
    "responses": {
     "200": {
      "description": "Groups",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AppGroupList"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "notification_url": {
          "type": [
           "string",
           "null"
          ]
         }
        },
        "additionalProperties": false,
        "required": [
         "notification_url"
        ]
       }
      }
     }
    }
   }
  },
  "/mock/notifications/settings": {
   "get": {
    "summary": "Notification switches",
    "responses": {
     "200": {
      "description": "Settings",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "events_as_string": {
           "type": "boolean"
          },
          "event_time_ms": {
           "type": "boolean"
          },
          "account_deletion_type": {
           "type": "string",
           "enum": [
            "account-delete",
            "account-deleted"
           ]
          },
          "send_on_user_changes": {
           "type": "boolean"
          },
          "max_attempts": {
           "type": "integer",
           "minimum": 1,
           "maximum": 20
          },
          "retry_delay_ms": {
           "type": "integer",
           "minimum": 0,
           "maximum": 600000
          },
          "timeout_ms": {
           "type": "integer",
           "minimum": 1,
           "maximum": 120000
          }
         },
         "additionalProperties": false,
         "required": [
          "events_as_string",
          "event_time_ms",
          "account_deletion_type",
          "send_on_user_changes",
          "max_attempts",
          "retry_delay_ms",
          "timeout_ms"
         ]
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ]
   },
   "patch": {
    "summary": "Change notification switches",
    "responses": {
     "200": {
      "description": "Settings",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "events_as_string": {
           "type": "boolean"
          },
          "event_time_ms": {
           "type": "boolean"
          },
          "account_deletion_type": {
           "type": "string",
           "enum": [
            "account-delete",
            "account-deleted"
           ]
          },
          "send_on_user_changes": {
           "type": "boolean"
          },
          "max_attempts": {
           "type": "integer",
           "minimum": 1,
           "maximum": 20
          },
          "retry_delay_ms": {
           "type": "integer",
           "minimum": 0,
           "maximum": 600000
          },
          "timeout_ms": {
           "type": "integer",
           "minimum": 1,
           "maximum": 120000
          }
         },
         "additionalProperties": false,
         "required": [
          "events_as_string",
          "event_time_ms",
          "account_deletion_type",
          "send_on_user_changes",
          "max_attempts",
          "retry_delay_ms",
          "timeout_ms"
         ]
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {},
     {
      "adminToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "events_as_string": {
          "type": "boolean"
         },
         "event_time_ms": {
          "type": "boolean"
         },
         "account_deletion_type": {
          "type": "string",
          "enum": [
           "account-delete",
           "account-deleted"
          ]
         },
         "send_on_user_changes": {
          "type": "boolean"
         },
         "max_attempts": {
          "type": "integer",
          "minimum": 1,
          "maximum": 20
         },
         "retry_delay_ms": {
          "type": "integer",
          "minimum": 0,
          "maximum": 600000
         },
         "timeout_ms": {
          "type": "integer",
          "minimum": 1,
          "maximum": 120000
         }
        },
        "additionalProperties": false
       }
      }
     }
    }
   }
  }
 },
 "components": {
  "schemas": {
   "AppleError": {
    "type": "object",
    "properties": {
     "error": {
      "type": "string",
      "enum": [
       "invalid_request",
       "invalid_client",
       "invalid_grant",
       "unauthorized_client",
       "unsupported_grant_type",
       "invalid_scope"
      ]
     },
     "error_description": {
      "type": "string"
     }
    },
    "additionalProperties": false,
    "required": [
     "error"
    ]
   },
   "AppGroupList": {
    "type": "object",
    "properties": {
     "app_groups": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "id": {
         "type": "string"
        },
        "primary_app_id": {
         "type": "string"
        },
        "client_ids": {
         "type": "array",
         "items": {
          "type": "string"
         }
        },
        "notification_url": {
         "type": [
          "string",
          "null"
         ]
        }
       },
       "additionalProperties": false,
       "required": [
        "id",
        "primary_app_id",
        "client_ids",
        "notification_url"
       ]
      }
     }
    },
    "additionalProperties": false,
    "required": [
     "app_groups"
    ]
   },
   "ControlError": {
    "type": "object",
    "properties": {
     "error": {
      "type": "string"
     },
     "field": {
      "type": "string"
     },
     "message": {
      "type": "string"
     }
    },
    "additionalProperties": false,
    "required": [
     "error",
     "message"
    ]
   },
   "ScenarioErrors": {
    "type": "object",
    "properties": {
     "error": {
      "type": "string"
     },
     "message": {
      "type": "string"
     },
     "errors": {
      "type": "array",
      "items": {
       "type": "string"
      }
     }
    },
    "additionalProperties": false,
    "required": [
     "error",
     "errors"
    ]
   },
   "JWKS": {
    "type": "object",
    "properties": {
     "keys": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "kty": {
         "type": "string"
        },
        "kid": {
         "type": "string"
        },
        "use": {
         "type": "string"
        },
        "alg": {
         "type": "string"
        },
        "n": {
         "type": "string"
        },
        "e": {
         "type": "string"
        }
       },
       "additionalProperties": false,
       "required": [
        "kty",
        "kid",
        "use",
        "alg",
        "n",
        "e"
       ]
      }
     }
    },
    "additionalProperties": false,
    "required": [
     "keys"
    ]
   },
   "TokenResponse": {
    "type": "object",
    "properties": {
     "access_token": {
      "type": "string"
     },
     "token_type": {
      "type": "string"
     },
     "expires_in": {
      "type": "integer"
     },
     "refresh_token": {
      "type": "string"
     },
     "id_token": {
      "type": "string"
     }
    },
    "additionalProperties": false,
    "required": [
     "access_token",
     "token_type",
     "expires_in"
    ]
   },
   "MigrationInfo": {
    "type": "object",
    "properties": {
     "transfer_sub": {
      "type": "string"
     },
     "sub": {
      "type": "string"
     },
     "email": {
      "type": "string"
     },
     "is_private_email": {
      "type": "boolean"
     }
    },
    "additionalProperties": false
   },
   "NativeCredential": {
    "type": "object",
    "properties": {
     "user": {
      "type": "string"
     },
     "identityToken": {
      "type": "string"
     },
     "authorizationCode": {
      "type": "string"
     },
     "fullName": {
      "oneOf": [
       {
        "type": "object",
        "properties": {
         "givenName": {
          "type": "string"
         },
         "familyName": {
          "type": "string"
         }
        },
        "additionalProperties": false,
        "required": [
         "givenName",
         "familyName"
        ]
       },
       {
        "type": "null"
       }
      ]
     },
     "email": {
      "type": [
       "string",
       "null"
      ]
     },
     "realUserStatus": {
      "type": "integer",
      "minimum": 0,
      "maximum": 2
     },
     "authorizedScopes": {
      "type": "array",
      "items": {
       "type": "string"
      }
     },
     "state": {
      "type": [
       "string",
       "null"
      ]
     }
    },
    "additionalProperties": false,
    "required": [
     "user",
     "identityToken",
     "authorizationCode",
     "fullName",
     "email",
     "realUserStatus",
     "authorizedScopes",
     "state"
    ]
   },
   "User": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "sub": {
      "type": "string"
     },
     "email": {
      "type": "string"
     },
     "email_verified": {
      "type": "boolean"
     },
     "private_email": {
      "type": "boolean"
     },
     "relay_email": {
      "type": [
       "string",
       "null"
      ]
     },
     "email_forwarding": {
      "type": "boolean"
     },
     "first_name": {
      "type": "string"
     },
     "last_name": {
      "type": "string"
     },
     "real_user_status": {
      "type": "string",
      "enum": [
       "unsupported",
       "unknown",
       "likely_real"
      ]
     },
     "credential_state": {
      "type": "string",
      "enum": [
       "authorized",
       "revoked",
       "not_found",
       "transferred"
      ]
     },
     "authorized_app_groups": {
      "type": "array",
      "items": {
       "type": "string"
      }
     }
    },
    "additionalProperties": false,
    "required": [
     "id",
     "sub",
     "email",
     "email_verified",
     "private_email",
     "relay_email",
     "email_forwarding",
     "first_name",
     "last_name",
     "real_user_status",
     "credential_state",
     "authorized_app_groups"
    ]
   },
   "RealUserStatusInput": {
    "oneOf": [
     {
      "type": "string",
      "enum": [
       "unsupported",
       "unknown",
       "likely_real",
       "likelyReal"
      ]
     },
     {
      "type": "integer",
      "minimum": 0,
      "maximum": 2
     }
    ]
   },
   "UserChange": {
    "type": "object",
    "properties": {
     "credential_state": {
      "type": "string",
      "enum": [
       "authorized",
       "revoked",
       "not_found",
       "notFound",
       "transferred"
      ]
     },
     "email_forwarding": {
      "type": "boolean"
     },
     "real_user_status": {
      "$ref": "#/components/schemas/RealUserStatusInput"
     },
     "email": {
      "type": "string",
      "minLength": 1
     },
     "email_verified": {
      "type": "boolean"
     },
     "private_email": {
      "type": "boolean"
     },
     "relay_email": {
      "type": "string"
     },
     "first_name": {
      "type": "string"
     },
     "last_name": {
      "type": "string"
     }
    },
    "additionalProperties": false
   },
   "NewUser": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string",
      "minLength": 1
     },
     "sub": {
      "type": "string"
     },
     "email": {
      "type": "string",
      "minLength": 1
     },
     "email_verified": {
      "type": "boolean"
     },
     "private_email": {
      "type": "boolean"
     },
     "relay_email": {
      "type": "string"
     },
     "first_name": {
      "type": "string"
     },
     "last_name": {
      "type": "string"
     },
     "real_user_status": {
      "$ref": "#/components/schemas/RealUserStatusInput"
     },
     "email_forwarding": {
      "type": "boolean"
     }
    },
    "additionalProperties": false,
    "required": [
     "id",
     "email"
    ]
   },
   "Clock": {
    "type": "object",
    "properties": {
     "now": {
      "type": "string",
      "format": "date-time"
     },
     "epoch_seconds": {
      "type": "integer"
     },
     "epoch_milliseconds": {
      "type": "integer"
     },
     "frozen": {
      "type": "boolean"
     },
     "controllable": {
      "type": "boolean"
     }
    },
    "additionalProperties": false,
    "required": [
     "now",
     "epoch_seconds",
     "epoch_milliseconds",
     "frozen",
     "controllable"
    ]
   },
   "KeyList": {
    "type": "object",
    "properties": {
     "signing_kid": {
      "type": "string"
     },
     "keys": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "kid": {
         "type": "string"
        },
        "published": {
         "type": "boolean"
        },
        "signs": {
         "type": "boolean"
        }
       },
       "additionalProperties": false,
       "required": [
        "kid",
        "published",
        "signs"
       ]
      }
     }
    },
    "additionalProperties": false,
    "required": [
     "signing_kid",
     "keys"
    ]
   },
   "JournalEntry": {
    "type": "object",
    "properties": {
     "sequence": {
      "type": "integer"
     },
     "kind": {
      "type": "string",
      "enum": [
       "request",
       "notification"
      ]
     },
     "time": {
      "type": "string",
      "format": "date-time"
     },
     "method": {
      "type": "string"
     },
     "path": {
      "type": "string"
     },
     "parameters": {
      "type": "object",
      "additionalProperties": {
       "type": "string"
      }
     },
     "client_id": {
      "type": [
       "string",
       "null"
      ]
     },
     "user": {
      "type": [
       "string",
       "null"
      ]
     },
     "status": {
      "type": "integer"
     },
     "outcome": {
      "type": "string"
     }
    },
    "additionalProperties": false,
    "required": [
     "sequence",
     "kind",
     "time",
     "method",
     "path",
     "parameters",
     "client_id",
     "user",
     "status",
     "outcome"
    ]
   },
   "Notification": {
    "type": "object",
    "properties": {
     "id": {
      "type": "integer"
     },
     "type": {
      "type": "string"
     },
     "user": {
      "type": "string"
     },
     "app_group": {
      "type": "string"
     },
     "aud": {
      "type": "string"
     },
     "jti": {
      "type": "string"
     },
     "url": {
      "type": "string"
     },
     "status": {
      "type": "string",
      "enum": [
       "pending",
       "delivered",
       "failed"
      ]
     },
     "payload": {
      "type": "string"
     },
     "attempts": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "number": {
         "type": "integer"
        },
        "time": {
         "type": "string",
         "format": "date-time"
        },
        "status": {
         "type": [
          "integer",
          "null"
         ]
        },
        "outcome": {
         "type": "string"
        }
       },
       "additionalProperties": false,
       "required": [
        "number",
        "time",
        "status",
        "outcome"
       ]
      }
     }
    },
    "additionalProperties": false,
    "required": [
     "id",
     "type",
     "user",
     "app_group",
     "aud",
     "jti",
     "url",
     "status",
     "payload",
     "attempts"
    ]
   }
  },
  "responses": {
   "BadRequest": {
    "description": "Invalid field (named in `field`); nothing applied",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/ControlError"
      }
     }
    }
   },
   "Unauthorized": {
    "description": "Admin token missing or wrong (only with --admin-token)",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/ControlError"
      }
     }
    }
   },
   "NotFound": {
    "description": "Unknown user, client, key or path (named in `field`)",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/ControlError"
      }
     }
    }
   },
   "MethodNotAllowed": {
    "description": "Wrong method",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/ControlError"
      }
     }
    }
   },
   "Conflict": {
    "description": "Contradicts the current state",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/ControlError"
      }
     }
    }
   },
   "NotImplemented": {
    "description": "No scenario loader in this build",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/ControlError"
      }
     }
    }
   }
  },
  "securitySchemes": {
   "adminToken": {
    "type": "http",
    "scheme": "bearer",
    "description": "Only when serving with --admin-token"
   },
   "migrationToken": {
    "type": "http",
    "scheme": "bearer",
    "description": "client_credentials access token (scope user.migration)"
   }
  }
 }
}
"""#
}
