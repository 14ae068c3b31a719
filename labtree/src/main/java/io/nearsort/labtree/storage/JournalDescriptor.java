package io.nearsort.labtree.storage;

/**
 * Layout of a page file's journal, {@code <file>.journal} next to it (little-endian): a redo log holding the
 * after-images of the committed pages one commit changes, so that a commit is atomic although pages are updated in
 * place.
 *
 * <pre>
 * [0]                         commit record, written last:
 *                             [0] long magic "NSLABJNL"  [8] int version  [12] int pageSize  [16] long generation
 *                             [24] long pageCount  [32] long slotCount  [40] int table CRC32C
 *                             [44] int CRC32C of bytes 0..43
 * [pageSize × s], s ≥ 1       slot s: the image of one data page, trailer included ({@link PageTrailerDescriptor})
 * [pageSize × (slotCount+1)]  slot table: slotCount × ([0] long page  [8] int the image's trailer CRC32C)
 * </pre>
 *
 * A commit without slots (every page it changed is past the last commit, so written in place: a new file's first
 * commit) is the commit record alone.
 *
 * <p>Protocol (one writer; {@link PageFile#sync()}): between commits, a dirty page that the last commit holds
 * (number ≤ its pageCount) is written to a slot of the journal, never over its committed image; a page beyond it
 * is written in place. A commit (1) forces the file, so the pages written in place are durable, (2) writes the
 * table and the commit record and forces the journal — the commit point — (3) copies every slot to its page,
 * writes the header (generation + 1, pageCount) and forces the file, (4) truncates the journal.
 *
 * <p>Recovery (at open, when a journal exists: the file was not closed): a commit record is complete when its
 * checksum, its table's checksum and every slot's page number and checksum match. A complete record whose
 * generation is not older than the header's is replayed (replaying twice writes the same images), the file is
 * forced and the journal deleted; anything else is an uncommitted remainder and is discarded with the journal, and
 * the file opens at the header's commit. A slot whose image is torn, stale or from a later epoch fails the table's
 * checksum, so a half-written commit is never replayed. A commit that looks incomplete is read again before the
 * journal is discarded: a read that returned a flipped bit once must not drop a durable commit (after a partial
 * checkpoint that would leave a mixture of two commits). A journal damaged on the device stays indistinguishable
 * from a torn one.
 */
final class JournalDescriptor {
    /** "NSLABJNL" in ASCII. */
    static final long MAGIC = 0x4E534C41424A4E4CL;
    static final int VERSION = 1;
    /** Appended to the page file's name. */
    static final String SUFFIX = ".journal";

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int PAGE_SIZE_OFFSET = 12;
    static final int GENERATION_OFFSET = 16;
    static final int PAGE_COUNT_OFFSET = 24;
    static final int SLOT_COUNT_OFFSET = 32;
    static final int TABLE_CHECKSUM_OFFSET = 40;
    static final int CHECKSUM_OFFSET = 44;
    /** Bytes of the commit record. */
    static final int RECORD_LENGTH = 48;

    static final int TABLE_PAGE_OFFSET = 0;
    static final int TABLE_CHECKSUM_ENTRY_OFFSET = 8;
    static final int TABLE_ENTRY_LENGTH = 12;

    private JournalDescriptor() {
    }

    /** Where slot {@code slot} (≥ 1) starts. */
    static long slotPosition(final long slot, final int pageSize) {
        return slot * pageSize;
    }

    /** Where the table of a commit of {@code slotCount} slots starts. */
    static long tablePosition(final long slotCount, final int pageSize) {
        return (slotCount + 1) * pageSize;
    }
}
