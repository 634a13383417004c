#include "app/image_decode.hpp"

#include <gif_lib.h>
#include <jpeglib.h>
#include <png.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <zlib.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace wharf::app {
namespace {

using Decoded = core::Result<ImageFacts>;

core::Error bad(std::string message) {
  return core::Error{std::move(message), "bad_image"};
}

std::string trailing(std::string_view what, std::size_t extra) {
  return "the " + std::string(what) + " has " + std::to_string(extra) +
         " bytes after its end (a file hidden behind an image is not an image)";
}

// Checked from the header, before a pixel buffer exists.
core::Status check_size(std::string_view what, std::uint64_t width, std::uint64_t height,
                        std::uint64_t& decoded_so_far) {
  if (width == 0 || height == 0) return bad("the " + std::string(what) + " has no pixels");
  if (width > kMaxImageSide || height > kMaxImageSide || width * height > kMaxImagePixels) {
    return bad("the " + std::string(what) + " is " + std::to_string(width) + "x" +
               std::to_string(height) + " pixels; wharf takes at most " +
               std::to_string(kMaxImageSide) + " a side and " +
               std::to_string(kMaxImagePixels / 1'000'000) + " megapixels");
  }
  decoded_so_far += width * height;
  if (decoded_so_far > kMaxDecodedPixels) {
    return bad("the " + std::string(what) + "'s frames together exceed " +
               std::to_string(kMaxDecodedPixels / 1'000'000) + " megapixels");
  }
  return core::ok_status();
}

std::uint32_t big_endian32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

// ---- PNG: every chunk's length and CRC up to IEND (nothing after it), then libpng.

core::Status walk_png_chunks(std::string_view bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t pos = 8;  // after the signature
  bool first = true;
  while (true) {
    if (bytes.size() - pos < 12) return bad("the PNG is cut short");
    std::uint32_t length = big_endian32(data + pos);
    if (length > 0x7fffffffu || bytes.size() - pos - 12 < length)
      return bad("the PNG is cut short");
    std::string_view type = bytes.substr(pos + 4, 4);
    if (first && type != "IHDR") return bad("the PNG does not start with its header chunk");
    first = false;
    auto crc = crc32(0L, data + pos + 4, static_cast<uInt>(length) + 4);
    if (crc != big_endian32(data + pos + 8 + length))
      return bad("the PNG is damaged (a chunk's checksum is wrong)");
    pos += 12 + length;
    if (type == "IEND") break;
  }
  if (pos != bytes.size()) return bad(trailing("PNG", bytes.size() - pos));
  return core::ok_status();
}

Decoded decode_png(std::string_view bytes) {
  if (auto walked = walk_png_chunks(bytes); !walked) return walked.error();
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()) == 0)
    return bad("the PNG does not decode: " + std::string(image.message));
  std::uint64_t decoded = 0;
  if (auto sized = check_size("PNG", image.width, image.height, decoded); !sized) {
    png_image_free(&image);
    return sized.error();
  }
  // One byte a pixel: the decode is what is checked, not the colours.
  image.format = PNG_FORMAT_GRAY;
  std::vector<png_byte> pixels(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0)
    return bad("the PNG does not decode: " + std::string(image.message));
  return ImageFacts{.width = image.width, .height = image.height};
}

// ---- JPEG: libjpeg-turbo reports errors by longjmp, so the decoding function holds
// nothing with a destructor; any warning (corrupt data, a premature end) is a refusal.

struct JpegErrors {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  int warnings;
};

[[noreturn]] void jpeg_fail(j_common_ptr info) {
  auto* errors = reinterpret_cast<JpegErrors*>(info->err);
  (*info->err->format_message)(info, errors->message);
  std::longjmp(errors->jump, 1);
}

void jpeg_note(j_common_ptr info, int level) {
  auto* errors = reinterpret_cast<JpegErrors*>(info->err);
  if (level < 0 && errors->warnings++ == 0) (*info->err->format_message)(info, errors->message);
}

enum class JpegOutcome { kDecoded, kFailed, kWarned, kTooBig, kTrailing };

struct JpegResult {
  JpegOutcome outcome = JpegOutcome::kFailed;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::size_t trailing = 0;
  char message[JMSG_LENGTH_MAX] = {};
};

void run_jpeg(const unsigned char* data, std::size_t size, JpegResult* out) {
  jpeg_decompress_struct info{};
  JpegErrors errors{};
  info.err = jpeg_std_error(&errors.manager);
  errors.manager.error_exit = jpeg_fail;
  errors.manager.emit_message = jpeg_note;
  if (setjmp(errors.jump) != 0) {
    std::memcpy(out->message, errors.message, sizeof out->message);
    out->outcome = JpegOutcome::kFailed;
    jpeg_destroy_decompress(&info);
    return;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, static_cast<unsigned long>(size));
  jpeg_read_header(&info, TRUE);
  out->width = info.image_width;
  out->height = info.image_height;
  std::uint64_t decoded = 0;
  if (!check_size("JPEG", info.image_width, info.image_height, decoded)) {
    out->outcome = JpegOutcome::kTooBig;
    jpeg_destroy_decompress(&info);
    return;
  }
  jpeg_start_decompress(&info);
  // From the library's own pool, freed by jpeg_destroy_decompress whatever happens.
  const auto stride =
      static_cast<JDIMENSION>(info.output_width * static_cast<JDIMENSION>(info.output_components));
  JSAMPARRAY row =
      (*info.mem->alloc_sarray)(reinterpret_cast<j_common_ptr>(&info), JPOOL_IMAGE, stride, 1);
  while (info.output_scanline < info.output_height) jpeg_read_scanlines(&info, row, 1);
  jpeg_finish_decompress(&info);
  out->trailing = info.src->bytes_in_buffer;
  if (errors.warnings > 0) {
    std::memcpy(out->message, errors.message, sizeof out->message);
    out->outcome = JpegOutcome::kWarned;
  } else {
    out->outcome = out->trailing > 0 ? JpegOutcome::kTrailing : JpegOutcome::kDecoded;
  }
  jpeg_destroy_decompress(&info);
}

Decoded decode_jpeg(std::string_view bytes) {
  JpegResult result;
  run_jpeg(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &result);
  switch (result.outcome) {
    case JpegOutcome::kDecoded:
      return ImageFacts{.width = result.width, .height = result.height};
    case JpegOutcome::kTooBig: {
      std::uint64_t decoded = 0;
      return check_size("JPEG", result.width, result.height, decoded).error();
    }
    case JpegOutcome::kTrailing:
      return bad(trailing("JPEG", result.trailing));
    case JpegOutcome::kWarned:
      return bad("the JPEG is damaged or cut short: " + std::string(result.message));
    case JpegOutcome::kFailed:
      break;
  }
  return bad("the JPEG does not decode: " + std::string(result.message));
}

// ---- GIF: giflib, reading from memory; every frame decoded a row at a time.

struct GifReader {
  std::string_view bytes;
  std::size_t pos = 0;
};

int read_gif(GifFileType* gif, GifByteType* into, int length) {
  auto* reader = static_cast<GifReader*>(gif->UserData);
  std::size_t n =
      std::min(static_cast<std::size_t>(std::max(length, 0)), reader->bytes.size() - reader->pos);
  std::memcpy(into, reader->bytes.data() + reader->pos, n);
  reader->pos += n;
  return static_cast<int>(n);
}

struct GifCloser {
  void operator()(GifFileType* gif) const {
    int ignored = 0;
    DGifCloseFile(gif, &ignored);
  }
};

std::string gif_failure(int code) {
  const char* text = GifErrorString(code);
  if (code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON)
    return "the GIF is cut short";
  return "the GIF does not decode: " + std::string(text != nullptr ? text : "unknown error");
}

Decoded decode_gif(std::string_view bytes) {
  GifReader reader{bytes};
  int error = 0;
  std::unique_ptr<GifFileType, GifCloser> gif(DGifOpen(&reader, read_gif, &error));
  if (!gif) return bad(gif_failure(error));
  // The logical screen is the canvas a viewer allocates: it is held to the caps too,
  // whatever the frames inside it measure (found by the fuzzer: a 2x2 frame on a
  // 2x63998 screen).
  ImageFacts facts{.width = static_cast<std::uint32_t>(std::max(gif->SWidth, 0)),
                   .height = static_cast<std::uint32_t>(std::max(gif->SHeight, 0)),
                   .frames = 0};
  std::uint64_t decoded = 0;
  if (facts.width != 0 || facts.height != 0) {
    std::uint64_t screen = 0;
    if (auto sized = check_size("GIF", facts.width, facts.height, screen); !sized)
      return sized.error();
  }
  std::vector<GifPixelType> row;
  for (;;) {
    GifRecordType type = UNDEFINED_RECORD_TYPE;
    if (DGifGetRecordType(gif.get(), &type) == GIF_ERROR) return bad(gif_failure(gif->Error));
    if (type == TERMINATE_RECORD_TYPE) break;
    if (type == EXTENSION_RECORD_TYPE) {
      int code = 0;
      GifByteType* block = nullptr;
      if (DGifGetExtension(gif.get(), &code, &block) == GIF_ERROR)
        return bad(gif_failure(gif->Error));
      while (block != nullptr) {
        if (DGifGetExtensionNext(gif.get(), &block) == GIF_ERROR)
          return bad(gif_failure(gif->Error));
      }
      continue;
    }
    if (type != IMAGE_DESC_RECORD_TYPE) return bad("the GIF does not decode: an unknown record");
    if (DGifGetImageDesc(gif.get()) == GIF_ERROR) return bad(gif_failure(gif->Error));
    int width = gif->Image.Width;
    int height = gif->Image.Height;
    if (width < 0 || height < 0) return bad("the GIF does not decode: a negative size");
    if (auto sized = check_size("GIF", static_cast<std::uint64_t>(width),
                                static_cast<std::uint64_t>(height), decoded);
        !sized)
      return sized.error();
    if (facts.width == 0 && facts.height == 0) {
      facts.width = static_cast<std::uint32_t>(width);
      facts.height = static_cast<std::uint32_t>(height);
    }
    row.resize(static_cast<std::size_t>(width));
    for (int y = 0; y < height; ++y) {
      if (DGifGetLine(gif.get(), row.data(), width) == GIF_ERROR)
        return bad(gif_failure(gif->Error));
    }
    ++facts.frames;
  }
  if (facts.frames == 0) return bad("the GIF has no image in it");
  if (reader.pos != bytes.size()) return bad(trailing("GIF", bytes.size() - reader.pos));
  return facts;
}

// ---- WebP: the RIFF size must be the file's, then libwebp (libwebpdemux for animations).

Decoded decode_webp(std::string_view bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < 12) return bad("the WebP is cut short");
  std::uint64_t riff = std::uint64_t{data[4]} | (std::uint64_t{data[5]} << 8) |
                       (std::uint64_t{data[6]} << 16) | (std::uint64_t{data[7]} << 24);
  if (riff + 8 > bytes.size()) return bad("the WebP is cut short");
  if (riff + 8 < bytes.size()) return bad(trailing("WebP", bytes.size() - (riff + 8)));
  WebPBitstreamFeatures features{};
  if (WebPGetFeatures(data, bytes.size(), &features) != VP8_STATUS_OK)
    return bad("the WebP does not decode");
  std::uint64_t decoded = 0;
  if (features.has_animation == 0) {
    if (auto sized = check_size("WebP", static_cast<std::uint64_t>(features.width),
                                static_cast<std::uint64_t>(features.height), decoded);
        !sized)
      return sized.error();
    WebPDecoderConfig config;
    if (WebPInitDecoderConfig(&config) == 0) return bad("the WebP decoder cannot start");
    // YUV: a byte and a half a pixel, the least the library decodes to.
    config.output.colorspace = MODE_YUV;
    VP8StatusCode status = WebPDecode(data, bytes.size(), &config);
    WebPFreeDecBuffer(&config.output);
    if (status == VP8_STATUS_NOT_ENOUGH_DATA) return bad("the WebP is cut short");
    if (status != VP8_STATUS_OK) return bad("the WebP does not decode");
    return ImageFacts{.width = static_cast<std::uint32_t>(features.width),
                      .height = static_cast<std::uint32_t>(features.height)};
  }
  WebPData whole{data, bytes.size()};
  WebPAnimDecoderOptions options;
  if (WebPAnimDecoderOptionsInit(&options) == 0) return bad("the WebP decoder cannot start");
  // The canvas is checked before the decoder allocates it: read it from the demuxer first.
  WebPDemuxer* demux = WebPDemux(&whole);
  if (demux == nullptr) return bad("the animated WebP does not decode");
  std::uint64_t canvas_width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
  std::uint64_t canvas_height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
  std::uint64_t frame_count = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
  WebPDemuxDelete(demux);
  if (auto sized = check_size("WebP", canvas_width, canvas_height, decoded); !sized)
    return sized.error();
  if (frame_count == 0) return bad("the animated WebP has no frames");
  if (frame_count > kMaxDecodedPixels / (canvas_width * canvas_height))
    return bad("the WebP's frames together exceed " +
               std::to_string(kMaxDecodedPixels / 1'000'000) + " megapixels");
  WebPAnimDecoder* decoder = WebPAnimDecoderNew(&whole, &options);
  if (decoder == nullptr) return bad("the animated WebP does not decode");
  ImageFacts facts{.width = static_cast<std::uint32_t>(canvas_width),
                   .height = static_cast<std::uint32_t>(canvas_height),
                   .frames = 0};
  bool failed = false;
  while (WebPAnimDecoderHasMoreFrames(decoder) != 0) {
    std::uint8_t* pixels = nullptr;
    int timestamp = 0;
    if (WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) == 0) {
      failed = true;
      break;
    }
    ++facts.frames;
  }
  WebPAnimDecoderDelete(decoder);
  if (failed || facts.frames != frame_count) return bad("the animated WebP does not decode");
  return facts;
}

}  // namespace

core::Result<ImageFacts> decode_image(std::string_view bytes, const core::UploadKind& kind) {
  if (kind.type == "image/png") return decode_png(bytes);
  if (kind.type == "image/jpeg") return decode_jpeg(bytes);
  if (kind.type == "image/gif") return decode_gif(bytes);
  if (kind.type == "image/webp") return decode_webp(bytes);
  return bad("wharf cannot decode " + std::string(kind.type));
}

}  // namespace wharf::app
