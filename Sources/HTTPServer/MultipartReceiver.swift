import CMicroHTTPD
import Glibc

/// Receives a `multipart/form-data` body through libmicrohttpd's post processor: text fields
/// are collected in memory, file parts are written to temporary files chunk by chunk, so an
/// upload never sits whole in memory. A `RequiredField` (the CSRF token) must have arrived and
/// matched before the first file part, or nothing of the body is stored.
final class MultipartReceiver {
    /// Text a body may carry before its required field: a form's fields placed ahead of its token
    /// (a submit button outside the form) fit many times over, a body read in vain does not.
    static let maxBytesBeforeRequiredField = 64 * 1024

    private var processor: OpaquePointer?
    private let directory: String
    private var fieldBytes: [(name: String, value: [UInt8])] = []
    private var fileRecords: [(fieldName: String, fileName: String, contentType: String, size: Int, path: String)] = []
    private var openFile: Int32 = -1
    private(set) var failure: HTTPError?
    /// Not yet arrived and matched; nil once it has (or when none is required).
    private var requiredField: RequiredField?
    /// Where in `fieldBytes` the required field is being received.
    private var requiredFieldIndex: Int?
    private var bytesBeforeRequiredField = 0

    /// Nil when the body is not a well-formed multipart type (e.g. no boundary).
    init?(connection: OpaquePointer, directory: String, requiredField: RequiredField?) {
        self.directory = directory
        self.requiredField = requiredField
        processor = MHD_create_post_processor(connection, 16 * 1024, multipartIterator,
                                              Unmanaged.passUnretained(self).toOpaque())
        if processor == nil { return nil }
    }

    /// Feeds a chunk of the body. Once the body failed (malformed, refused, a file that cannot be
    /// written) the rest is read and dropped, and `finish` answers the failure: libmicrohttpd
    /// cannot answer in the middle of a body, and dropping the connection would answer nothing.
    func receive(_ data: UnsafePointer<CChar>, count: Int) {
        guard failure == nil, let processor else { return }
        if MHD_post_process(processor, data, count) != MHD_Result.YES {
            failure = failure ?? HTTPError(.badRequest, "The form data could not be read.")
            closeOpenFile()
        }
    }

    /// Ends the body: the fields and files, or the reason it failed.
    func finish() -> Result<(FormFields, [UploadedFile]), HTTPError> {
        closeOpenFile()
        if let processor, MHD_destroy_post_processor(processor) != MHD_Result.YES, failure == nil {
            failure = HTTPError(.badRequest, "The form data ended too early.")
        }
        processor = nil
        if failure == nil, let requiredField, !requiredFieldMatches(requiredField) { failure = requiredField.refusal }
        if let failure {
            // Before the refusal goes out, not after: no handler will see these files.
            removeFiles()
            return .failure(failure)
        }
        var fields = FormFields()
        for (name, value) in fieldBytes {
            guard let text = String(validating: value, as: UTF8.self) else {
                return .failure(HTTPError(.badRequest, "The form field \(name) is not valid UTF-8 text."))
            }
            fields.append(name, text)
        }
        let files = fileRecords.map {
            UploadedFile(fieldName: $0.fieldName, fileName: $0.fileName, contentType: $0.contentType,
                         size: $0.size, path: $0.path)
        }
        return .success((fields, files))
    }

    /// Deletes the temporary files; called once the response has been sent.
    func removeFiles() {
        closeOpenFile()
        if let processor { MHD_destroy_post_processor(processor) }
        processor = nil
        for record in fileRecords { unlink(record.path) }
        fileRecords = []
    }

    fileprivate func part(name: String, fileName: String?, contentType: String?, offset: UInt64,
                          data: UnsafePointer<CChar>?, count: Int) -> Bool {
        guard admitBeforeRequiredField(name: name, isFile: fileName != nil, startsPart: offset == 0, count: count) else {
            return false
        }
        guard let fileName else {
            if offset == 0 { fieldBytes.append((name: name, value: [])) }
            if let data, count > 0 {
                data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                    fieldBytes[fieldBytes.count - 1].value.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
                }
            }
            return true
        }
        // A browser sends an empty, nameless file part for a file input left empty.
        guard !fileName.isEmpty else { return true }
        if offset == 0 {
            closeOpenFile()
            guard openTemporaryFile(fieldName: name, fileName: fileName, contentType: contentType) else { return false }
        }
        guard let data, count > 0 else { return true }
        var written = 0
        while written < count {
            let result = write(openFile, data + written, count - written)
            if result < 0 {
                if errno == EINTR { continue }
                failure = HTTPError(.insufficientStorage, "The upload could not be stored on the server.")
                return false
            }
            written += result
        }
        fileRecords[fileRecords.count - 1].size += count
        return true
    }

    /// Whether a part's bytes may be taken while the required field has not passed: only text, and
    /// little of it, comes before it; the field itself is checked as soon as the next part starts.
    private func admitBeforeRequiredField(name: String, isFile: Bool, startsPart: Bool, count: Int) -> Bool {
        guard let required = requiredField else { return true }
        if let index = requiredFieldIndex {
            if startsPart {
                guard requiredFieldMatches(required) else { return refuse(required) }
                requiredField = nil
                return true
            }
            return fieldBytes[index].value.count + count <= required.value.utf8.count || refuse(required)
        }
        guard !isFile else { return refuse(required) }
        if startsPart, name == required.name {
            requiredFieldIndex = fieldBytes.count
            return count <= required.value.utf8.count || refuse(required)
        }
        bytesBeforeRequiredField += count
        return bytesBeforeRequiredField <= Self.maxBytesBeforeRequiredField || refuse(required)
    }

    private func requiredFieldMatches(_ required: RequiredField) -> Bool {
        guard let index = requiredFieldIndex, let sent = String(validating: fieldBytes[index].value, as: UTF8.self) else {
            return false
        }
        return SecretToken.constantTimeEquals(sent, required.value)
    }

    private func refuse(_ required: RequiredField) -> Bool {
        failure = required.refusal
        return false
    }

    private func openTemporaryFile(fieldName: String, fileName: String, contentType: String?) -> Bool {
        var template = Array("\(directory)/upload-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            failure = HTTPError(.insufficientStorage, "The upload could not be stored on the server.")
            return false
        }
        openFile = descriptor
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        fileRecords.append((fieldName: fieldName, fileName: fileName,
                            contentType: contentType ?? "application/octet-stream", size: 0, path: path))
        return true
    }

    private func closeOpenFile() {
        if openFile >= 0 { close(openFile) }
        openFile = -1
    }
}

private func multipartIterator(_ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind,
                               _ key: UnsafePointer<CChar>?, _ fileName: UnsafePointer<CChar>?,
                               _ contentType: UnsafePointer<CChar>?, _ transferEncoding: UnsafePointer<CChar>?,
                               _ data: UnsafePointer<CChar>?, _ offset: UInt64, _ size: Int) -> MHD_Result {
    guard let context, let key else { return MHD_Result.NO }
    let receiver = Unmanaged<MultipartReceiver>.fromOpaque(context).takeUnretainedValue()
    let accepted = receiver.part(name: String(cString: key), fileName: fileName.map { String(cString: $0) },
                                 contentType: contentType.map { String(cString: $0) }, offset: offset,
                                 data: data, count: size)
    return accepted ? MHD_Result.YES : MHD_Result.NO
}
