package io.nearsort.flink;

import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * What a writer snapshots at a checkpoint: whose store it is and which commit of it the checkpoint holds.
 *
 * @param subtask      the subtask index owning the store
 * @param jobId        the job that made the commit (hex)
 * @param checkpointId the checkpoint whose commit this is
 */
public record NearsortWriterState(int subtask, String jobId, long checkpointId) {
    /** Serializes the state: version 1 is subtask, job id, checkpoint id. */
    static final class Serializer implements SimpleVersionedSerializer<NearsortWriterState> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(final NearsortWriterState state) throws IOException {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeInt(state.subtask);
                out.writeUTF(state.jobId);
                out.writeLong(state.checkpointId);
            }
            return bytes.toByteArray();
        }

        @Override
        public NearsortWriterState deserialize(final int version, final byte[] serialized) throws IOException {
            if (version != 1) {
                throw new IOException("nearsort writer state version " + version + " is not known (this build"
                        + " reads version 1)");
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
                return new NearsortWriterState(in.readInt(), in.readUTF(), in.readLong());
            }
        }
    }
}
