// mock-templates:fingerprint v1
// bundle: duet-mock-templates 1.4
// config: sha256:389f88eae1ff92a877c28b3c52b32ca0c63b5bba35fa75c95d4cc12998efcbd3 template=Templates/Mocks.swifttemplate args=Badge;Parts
// input: sha256:f28a87a740a6526646efbd2404333540c20048abfdb078c659a07b37f611a5a0 Sources/Shell/Parts/Badge.swift
// body: sha256:dfe99be8479ee38dc28c4667ab074bccc92f332625d8583e571d7b4b07bfc198
// mock-templates:end
// Generated from Templates/Mocks.swifttemplate
enum BadgeMock { static let all: [Badge] = [.free, .plus] }
