// A Check test's view of what the simulator reported on stderr; shared by
// the simulator's test suites.
#ifndef SIM_TESTS_STDERR_CAPTURE_H
#define SIM_TESTS_STDERR_CAPTURE_H

#include <check.h>
#include <stdio.h>
#include <unistd.h>

#include <string>

// Redirects file descriptor 2 (where the simulator reports) into a
// temporary file until finish(), which returns what was written.
class stderr_capture {
public:
    stderr_capture()
    {
        fflush(stderr);
        file_ = tmpfile();
        ck_assert_ptr_nonnull(file_);
        saved_ = dup(2);
        ck_assert_int_ge(saved_, 0);
        ck_assert_int_ge(dup2(fileno(file_), 2), 0);
    }
    std::string finish()
    {
        fflush(stderr);
        dup2(saved_, 2);
        close(saved_);
        std::string text;
        rewind(file_);
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, file_)) > 0)
            text.append(buf, n);
        fclose(file_);
        return text;
    }

private:
    FILE *file_;
    int saved_;
};

#endif
