package io.nearsort.flink;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobInfo;
import org.apache.flink.api.common.JobInfoImpl;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.TaskInfoImpl;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.util.UserCodeClassLoader;

import java.util.OptionalLong;

/** The parts of a writer's context the nearsort writer reads: the job, the subtask and the parallelism. */
final class TestInitContext implements WriterInitContext {
    private final JobID job;
    private final int subtask;
    private final int attempt;
    private final int parallelism;

    TestInitContext(final JobID job, final int subtask, final int attempt) {
        this(job, subtask, attempt, 2);
    }

    TestInitContext(final JobID job, final int subtask, final int attempt, final int parallelism) {
        this.job = job;
        this.subtask = subtask;
        this.attempt = attempt;
        this.parallelism = parallelism;
    }

    @Override
    public JobInfo getJobInfo() {
        return new JobInfoImpl(job, "test");
    }

    @Override
    public TaskInfo getTaskInfo() {
        return new TaskInfoImpl("sink", 128, subtask, parallelism, attempt);
    }

    @Override
    public OptionalLong getRestoredCheckpointId() {
        return OptionalLong.empty();
    }

    @Override
    public UserCodeClassLoader getUserCodeClassLoader() {
        throw new UnsupportedOperationException();
    }

    @Override
    public MailboxExecutor getMailboxExecutor() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ProcessingTimeService getProcessingTimeService() {
        throw new UnsupportedOperationException();
    }

    @Override
    public SinkWriterMetricGroup metricGroup() {
        throw new UnsupportedOperationException();
    }

    @Override
    public SerializationSchema.InitializationContext asSerializationSchemaInitializationContext() {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isObjectReuseEnabled() {
        return false;
    }

    @Override
    public <IN> TypeSerializer<IN> createInputSerializer() {
        throw new UnsupportedOperationException();
    }
}
