package io.nearsort.labtree.daf;

/**
 * Layout of a directly addressable file's meta page (data page 1):
 * <pre>
 * [0] long magic "DAFMETA1"  [8] int dimensions  [12] int nameLength  [16] long bitmapPages
 * [24] long × dimensions: shape, then the linearization name (UTF-8)
 * </pre>
 * Pages 2 … 1 + bitmapPages hold the presence bitmap of the data pages (bit q set: block q has been written);
 * block q of the linearized array lives in page 2 + bitmapPages + q.
 */
final class DafMetaDescriptor {
    static final long MAGIC = 0x4441464D45544131L;
    static final long META_PAGE = 1;
    static final int MAGIC_OFFSET = 0;
    static final int DIMENSIONS_OFFSET = 8;
    static final int NAME_LENGTH_OFFSET = 12;
    static final int BITMAP_PAGES_OFFSET = 16;
    static final int SHAPE_OFFSET = 24;

    private DafMetaDescriptor() {
    }
}
