import {
  create,
  type DescFile,
  type FileRegistry,
  type Message,
  type MessageInitShape,
  toBinary,
} from "@bufbuild/protobuf";
import type { GenMessage, GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, type ConnectRouter } from "@connectrpc/connect";
import { contractRulesRegistry } from "@palisade/api/contract-rules";
import * as v1 from "@palisade/api/gen/grpc/reflection/v1/reflection_pb";
import * as v1alpha from "@palisade/api/gen/grpc/reflection/v1alpha/reflection_pb";

/** Largest symbol or file name a reflection request may carry; longer ones name nothing. */
const MAX_NAME_LENGTH = 512;

/** A request of either version, as the generated code decodes it. */
type ReflectionRequest = v1.ServerReflectionRequest | v1alpha.ServerReflectionRequest;

/** What one request is answered with, before it is put in its version's message. */
type Answer =
  | { case: "fileDescriptorResponse"; value: { fileDescriptorProto: Uint8Array[] } }
  | { case: "allExtensionNumbersResponse"; value: { baseTypeName: string; extensionNumber: number[] } }
  | { case: "listServicesResponse"; value: { service: { name: string }[] } }
  | { case: "errorResponse"; value: { errorCode: number; errorMessage: string } };

const notFound = (errorMessage: string): Answer => ({
  case: "errorResponse",
  value: { errorCode: Code.NotFound, errorMessage },
});

/**
 * gRPC server reflection (v1 and v1alpha): clients such as `buf curl` and grpcurl read the
 * contract from the server instead of .proto files. The files served are the contract's as
 * `buf build` compiles them, options and buf.validate rules included, with every file they
 * import (buf/validate, google/protobuf); each file is sent once per stream, as clients expect.
 * Callers are authenticated like any RPC (the method's access rule in the contract).
 */
export function registerServerReflection(
  router: ConnectRouter,
  services: readonly GenService<GenServiceMethods>[],
): void {
  const registry = contractRulesRegistry();
  const names = [
    ...services.map((s) => s.typeName),
    v1.ServerReflection.typeName,
    v1alpha.ServerReflection.typeName,
  ];
  const answer = createAnswerer(registry, names);
  /** One stream: each request answered in turn, each file sent once. */
  const answering = <Response extends Message>(schema: GenMessage<Response>) =>
    async function* (requests: AsyncIterable<ReflectionRequest>) {
      const sent = new Set<string>();
      for await (const request of requests) {
        const init = {
          validHost: request.host,
          originalRequest: request,
          messageResponse: answer(request, sent),
        };
        // Both versions declare the same fields; each stream answers in its own version.
        yield create(schema, init as unknown as MessageInitShape<GenMessage<Response>>);
      }
    };
  router.service(v1.ServerReflection, {
    serverReflectionInfo: answering(v1.ServerReflectionResponseSchema),
  });
  router.service(v1alpha.ServerReflection, {
    serverReflectionInfo: answering(v1alpha.ServerReflectionResponseSchema),
  });
}

function createAnswerer(registry: FileRegistry, serviceNames: string[]) {
  /** The file and those it imports, transitively, that this stream has not sent yet. */
  const filesFrom = (file: DescFile, sent: Set<string>): Answer => {
    const out: Uint8Array[] = [];
    const visit = (f: DescFile) => {
      if (sent.has(f.proto.name)) return;
      sent.add(f.proto.name);
      out.push(toBinary(FileDescriptorProtoSchema, f.proto));
      for (const dependency of f.dependencies) visit(dependency);
    };
    visit(file);
    return { case: "fileDescriptorResponse", value: { fileDescriptorProto: out } };
  };

  /** The file declaring a symbol: a type, a service, a method or a field of a message. */
  const fileOf = (symbol: string): DescFile | undefined => {
    const found = registry.get(symbol);
    if (found) return found.file;
    const parent = registry.get(symbol.slice(0, Math.max(0, symbol.lastIndexOf("."))));
    if (parent?.kind === "service" && parent.methods.some((m) => `${parent.typeName}.${m.name}` === symbol))
      return parent.file;
    if (parent?.kind === "message" && parent.fields.some((f) => `${parent.typeName}.${f.name}` === symbol))
      return parent.file;
    return undefined;
  };

  return (request: ReflectionRequest, sent: Set<string>): Answer => {
    const asked = request.messageRequest;
    if (typeof asked.value === "string" && asked.value.length > MAX_NAME_LENGTH)
      return notFound(`The name is longer than ${MAX_NAME_LENGTH} characters.`);
    switch (asked.case) {
      case "listServices":
        return { case: "listServicesResponse", value: { service: serviceNames.map((name) => ({ name })) } };
      case "fileByFilename": {
        const file = registry.getFile(asked.value);
        return file ? filesFrom(file, sent) : notFound(`No file named ${asked.value}.`);
      }
      case "fileContainingSymbol": {
        const file = fileOf(asked.value.replace(/^\./, ""));
        return file ? filesFrom(file, sent) : notFound(`No symbol named ${asked.value}.`);
      }
      case "fileContainingExtension": {
        const { containingType, extensionNumber } = asked.value;
        const extendee = registry.getMessage(containingType);
        const extension = extendee && registry.getExtensionFor(extendee, extensionNumber);
        return extension
          ? filesFrom(extension.file, sent)
          : notFound(`No extension ${extensionNumber} of ${containingType}.`);
      }
      case "allExtensionNumbersOfType": {
        const extendee = registry.getMessage(asked.value);
        if (!extendee) return notFound(`No message named ${asked.value}.`);
        const numbers: number[] = [];
        for (const type of registry) {
          if (type.kind === "extension" && type.extendee.typeName === extendee.typeName)
            numbers.push(type.number);
        }
        return {
          case: "allExtensionNumbersResponse",
          value: { baseTypeName: extendee.typeName, extensionNumber: numbers.sort((a, b) => a - b) },
        };
      }
      default:
        return {
          case: "errorResponse",
          value: { errorCode: Code.InvalidArgument, errorMessage: "The request names no question." },
        };
    }
  };
}
